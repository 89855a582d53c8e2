import { cataloguePart, checkCatalogue } from './support/check-catalogue.js';

// The catalogue's broken deployments, part 3 of 3: the parts are files of their own, checked side by side.
checkCatalogue(cataloguePart('broken', 3, 3));
