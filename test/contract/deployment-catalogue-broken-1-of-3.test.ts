import { cataloguePart, checkCatalogue } from './support/check-catalogue.js';

// The catalogue's broken deployments, part 1 of 3: the parts are files of their own, checked side by side.
checkCatalogue(cataloguePart('broken', 1, 3));
