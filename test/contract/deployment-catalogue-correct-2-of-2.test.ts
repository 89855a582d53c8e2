import { cataloguePart, checkCatalogue } from './support/check-catalogue.js';

// The catalogue's correct deployments, part 2 of 2: the parts are files of their own, checked side by side.
checkCatalogue(cataloguePart('correct', 2, 2));
