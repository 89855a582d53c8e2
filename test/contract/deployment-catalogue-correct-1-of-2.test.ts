import { cataloguePart, checkCatalogue } from './support/check-catalogue.js';

// The catalogue's correct deployments, part 1 of 2: the parts are files of their own, checked side by side.
checkCatalogue(cataloguePart('correct', 1, 2));
