import { documentUnderTest, kitDocument, type DocumentUnderTest } from '../../support/behaviour-subject.js';
import { evolvedDocumentPath, evolvedDocuments } from './evolved-documents.js';

/**
 * Every document the kit's behaviour suites run over: the kit's own
 * openapi.yaml and each document of test/evolution/documents/.
 */
export const documentsUnderTest: DocumentUnderTest[] = [
  kitDocument,
  ...evolvedDocuments.map((name) => documentUnderTest(name, evolvedDocumentPath(name), `${name}.yaml`)),
];
