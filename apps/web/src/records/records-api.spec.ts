import { describe, expect, it } from '@jest/globals';
import { indexFormData } from './records-api';
import type { IndexForm } from './types';

const FORM: IndexForm = {
  allowDuplicate: false,
  deleteFile: true,
  extractOption: 'samples',
  recordName: '  CO2 means ',
  recordSource: '',
  extractFromURL: false,
  recordDescription: 'Annual',
  recordProvenance: '   ',
  recordFields: [
    { label: ' Station ', value: 'MLO' },
    { label: '  ', value: 'dropped: no label' },
  ],
};

describe('the multipart body of POST /api/records/', () => {
  it('sends files, flags as "true"/"false" strings, trimmed texts only when given, and labelled custom fields as JSON', () => {
    const files = [new File(['Year,Mean\n1959,315.98\n'], 'co2.csv', { type: 'text/csv' }), new File(['x'], 'notes.txt')];
    const data = indexFormData(files, FORM);
    expect(data.getAll('file').map((f) => (f as File).name)).toEqual(['co2.csv', 'notes.txt']);
    // The files come last, after the choices the server applies to them as they arrive.
    expect([...data.keys()].slice(-2)).toEqual(['file', 'file']);
    expect(Object.fromEntries([...data.entries()].filter(([key]) => key !== 'file'))).toEqual({
      extractOption: 'samples',
      allowDuplicate: 'false',
      deleteFile: 'true',
      extractFromURL: 'NO',
      saveSeparately: 'true',
      name: 'CO2 means',
      description: 'Annual',
      recordFields: JSON.stringify([{ label: 'Station', value: 'MLO' }]),
    });
  });

  it('a metadata-only record has no file part', () => {
    const data = indexFormData([], { ...FORM, recordFields: [], extractFromURL: true });
    expect(data.getAll('file')).toEqual([]);
    expect(data.get('extractFromURL')).toBe('YES');
    expect(data.has('recordFields')).toBe(false);
  });

  it('sends the chosen visibility and access, and a trimmed name and description per file only for two files or more', () => {
    const files = [new File(['a'], 'a.csv'), new File(['b'], 'b.csv')];
    const perFile = [
      { name: ' First ', description: '' },
      { name: '', description: ' About b ' },
    ];
    const data = indexFormData(files, FORM, { visibility: 'EV', access: 'OP', perFile });
    expect(data.get('visibility')).toBe('EV');
    expect(data.get('access')).toBe('OP');
    expect(JSON.parse(data.get('fileDetails') as string)).toEqual([
      { name: 'First', description: '' },
      { name: '', description: 'About b' },
    ]);
    const single = indexFormData(files.slice(0, 1), FORM, { visibility: 'PR', access: 'RE', perFile: perFile.slice(0, 1) });
    expect(single.has('fileDetails')).toBe(false);
    expect(single.get('visibility')).toBe('PR');
    // Without choices (the spec's fields only), neither is sent and the server's defaults apply.
    expect(indexFormData(files, FORM).has('visibility')).toBe(false);
  });
});
