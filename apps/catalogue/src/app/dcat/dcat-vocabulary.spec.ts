import { mediaTypeIri } from './dcat-vocabulary';

describe('DCAT vocabulary', () => {
  it("names a file's media type by IANA's IRI, without parameters, and nothing for what is not a media type", () => {
    expect(mediaTypeIri('text/csv')).toBe('http://www.iana.org/assignments/media-types/text/csv');
    expect(mediaTypeIri('Text/CSV; charset=utf-8')).toBe('http://www.iana.org/assignments/media-types/text/csv');
    expect(mediaTypeIri('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')).toBe(
      'http://www.iana.org/assignments/media-types/application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    for (const odd of ['', 'csv', 'text/', 'a b/c', 'text/csv/x']) expect(mediaTypeIri(odd)).toBeNull();
  });
});
