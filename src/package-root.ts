import { fileURLToPath } from 'node:url';

/**
 * The folder that holds package.json, openapi.yaml and fixtures/. This file sits
 * one level below it both as source (src/) and as build output (dist/).
 */
export const packageRoot = fileURLToPath(new URL('..', import.meta.url));

/** The document the mock serves unless told otherwise. */
export const defaultDocumentPath = fileURLToPath(new URL('../openapi.yaml', import.meta.url));

/** The scenarios shipped with the kit. */
export const defaultFixturesDir = fileURLToPath(new URL('../fixtures/', import.meta.url));
