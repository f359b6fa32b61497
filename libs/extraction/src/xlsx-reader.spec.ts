// The streaming .xlsx reader against SheetJS: the same META (and column sketches) from both, on every
// shared workbook, on workbooks SheetJS writes with every kind of cell, and on hand-made XML with the
// forms other writers use (inline and rich strings, styled blanks, missing or wrong ranges, 1904 dates).
// Forms the reader declines must still be read (by SheetJS) with the same META and the same errors.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Declined } from './sheet-scan';
import { buildZip, DATASETS } from './spec-support.fixture';
import { VARIANTS, workbookChecks, WRITTEN_FORMS } from './workbook-readers.fixture';

const {
  sharedWorkbooks,
  written: writtenWorkbook,
  read,
  expectSameAsSheetjs,
  expectAutoSameAsSheetjs,
  expectDeclinedAndSameAsSheetjs,
} = workbookChecks('xlsx');

describe('xlsx reader: shared workbooks', () => {
  it('finds the shared workbooks (../shared/datasets beside the repository)', () => {
    expect(sharedWorkbooks.length).toBeGreaterThanOrEqual(3);
  });

  it.each(sharedWorkbooks)('%s: the same META as SheetJS', async (file) => {
    await expectSameAsSheetjs(readFileSync(path.join(DATASETS, 'excel', file)));
  });
});

// ---------------------------------------------------------------------------------------------
// Workbooks SheetJS writes

describe('xlsx reader: workbooks SheetJS writes', () => {
  it.each(WRITTEN_FORMS)(
    'numbers, text, booleans, errors, dates and times, number formats, blanks, merged, hidden and empty sheets (shared strings $sst, 1904 $date1904)',
    async (form) => {
      await expectSameAsSheetjs(writtenWorkbook({ ...form, rows: 1200 }));
    },
  );
});

// ---------------------------------------------------------------------------------------------
// Hand-made workbooks

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

function handMade(sheets: string[], options: { strings?: string; styles?: string; workbookPr?: string } = {}): Buffer {
  const names = sheets.map((_, i) => `Sheet ${i + 1} &amp; co`);
  const overrides = [
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>',
    ...sheets.map(
      (_, i) =>
        `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
    ),
    options.strings
      ? '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
      : '',
    options.styles ? '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' : '',
  ].join('');
  return buildZip([
    {
      name: '[Content_Types].xml',
      data: `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>${overrides}</Types>`,
    },
    {
      name: '_rels/.rels',
      data: `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    },
    {
      name: 'xl/workbook.xml',
      data: `<?xml version="1.0"?><workbook xmlns="${MAIN}" xmlns:r="${REL}">${options.workbookPr ?? ''}<sheets>${names.map((n, i) => `<sheet name="${n}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('')}</sheets></workbook>`,
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${sheets.map((_, i) => `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join('')}</Relationships>`,
    },
    ...sheets.map((xml, i) => ({
      name: `xl/worksheets/sheet${i + 1}.xml`,
      data: `<?xml version="1.0"?><worksheet xmlns="${MAIN}" xmlns:r="${REL}">${xml}</worksheet>`,
    })),
    ...(options.strings ? [{ name: 'xl/sharedStrings.xml', data: `<?xml version="1.0"?><sst xmlns="${MAIN}" count="9">${options.strings}</sst>` }] : []),
    ...(options.styles ? [{ name: 'xl/styles.xml', data: `<?xml version="1.0"?><styleSheet xmlns="${MAIN}">${options.styles}</styleSheet>` }] : []),
  ]);
}

const STRINGS = [
  '<si><t>name</t></si>',
  '<si><t xml:space="preserve"> padded &amp; &#233;t&#xE9; _x000D_ </t></si>',
  '<si><r><rPr><b/></rPr><t>Rich</t></r><r><t xml:space="preserve"> text</t></r><rPh sb="0" eb="1"><t>ふり</t></rPh></si>',
  '<si><t>Ünïcödé 漢字 🚀</t></si>',
  '<si><t/></si>',
  '<si><t>line\r\nbreak</t></si>',
  '<si><t>NA</t></si>',
].join('');
const STYLES =
  '<numFmts count="3"><numFmt numFmtId="164" formatCode="yyyy\\-mm\\-dd"/><numFmt numFmtId="165" formatCode="0.0&quot; kg&quot;"/><numFmt numFmtId="500" formatCode="d.m"/></numFmts>' +
  '<cellXfs count="7"><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="164"/><xf numFmtId="165"/><xf numFmtId="22"/><xf numFmtId="500"/><xf numFmtId="49"/></cellXfs>';

function rows(count: number, row: (i: number) => string): string {
  return Array.from({ length: count }, (_, i) => row(i + 2)).join('');
}

describe('xlsx reader: forms other writers use', () => {
  it('shared, rich and inline strings, styled blank cells, date and custom formats, booleans and errors', async () => {
    const sheet =
      '<dimension ref="A1:H40"/><sheetData>' +
      '<row r="1" spans="1:8"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>2</v></c><c r="C1" t="inlineStr"><is><t>inline</t></is></c><c r="D1" t="str"><v>when</v></c><c r="E1" s="3"><v>1</v></c><c r="F1" t="b"><v>1</v></c><c r="G1" s="1"/></row>' +
      rows(39, (r) =>
        [
          `<row r="${r}">`,
          `<c r="A${r}" t="s"><v>${r % 7}</v></c>`,
          `<c r="B${r}" s="3"><v>${r * 1.5}</v></c>`,
          r % 5 ? `<c r="C${r}" t="inlineStr"><is><r><t>in</t></r><r><t xml:space="preserve">line ${r % 3}</t></r></is></c>` : `<c r="C${r}" s="6"/>`,
          `<c r="D${r}" s="${1 + (r % 5)}"><v>${40000 + r * 10.25}</v></c>`,
          `<c r="E${r}" t="b"><v>${r % 2}</v></c>`,
          r % 9 ? `<c r="F${r}" t="e"><v>#DIV/0!</v></c>` : `<c r="F${r}"><f>1/0</f></c>`,
          `<c r="G${r}" t="str"><f>A${r}</f><v>s &amp;amp; t</v></c>`,
          `<c r="H${r}" s="1"/>`,
          '</row>',
        ].join(''),
      ) +
      '</sheetData><mergeCells count="1"><mergeCell ref="A1:B1"/></mergeCells>';
    await expectSameAsSheetjs(handMade([sheet], { strings: STRINGS, styles: STYLES }));
  });

  it('1904 dates, the fictitious 1900-02-29 and ISO date cells', async () => {
    const isoDates = ['2024-01-02', '2024-01-02T03:04:05.678', '1999-12-31 23:59', '12:30:15', '2024-01-02T03:04:05Z', 'not a date'];
    const iso = (r: number): string => `<c r="B${r}" t="d"${r % 3 ? ' s="2"' : ''}><v>${isoDates[r % isoDates.length]}</v></c>`;
    const sheet = `<sheetData><row r="1"><c r="A1" t="str"><v>d</v></c><c r="B1" t="str"><v>iso</v></c></row>${rows(30, (r) => `<row r="${r}"><c r="A${r}" s="1"><v>${r === 2 ? 60 : r * 400.5}</v></c>${iso(r)}</row>`)}</sheetData>`;
    for (const workbookPr of ['<workbookPr date1904="1"/>', '<workbookPr date1904="false"/>', '']) {
      await expectSameAsSheetjs(handMade([sheet], { styles: STYLES, workbookPr }));
    }
  });

  it('no dimension, a dimension narrower than the rows, rows and cells without r, self-closing rows, title rows', async () => {
    const cells = (r: number): string => `<c><v>${r}</v></c><c t="str"><v>t${r % 4}</v></c><c/><c><v>${r / 8}</v></c>`;
    const sheets = [
      `<sheetData><row r="1"><c r="B1" t="str"><v>title</v></c></row><row r="3"><c r="A3" t="str"><v>a</v></c><c r="B3" t="str"><v>b</v></c></row>${rows(30, (r) => `<row r="${r + 2}">${cells(r)}</row>`)}<row r="40"/></sheetData>`,
      `<dimension ref="A1:B3"/><sheetData><row r="1"><c r="A1" t="str"><v>a</v></c></row>${rows(30, (r) => `<row>${cells(r)}</row>`)}</sheetData>`,
      `<dimension ref="A1:K9"/><sheetData>${rows(30, (r) => `<row r="${r}"><c r="A${r}"><v>${r}</v></c><c r="C${r}"><v>${r * 2}</v></c><c r="K${r}" s="1"/></row>`)}</sheetData>`,
      '<dimension ref="A1"/><sheetData/>',
    ];
    await expectSameAsSheetjs(handMade(sheets, { styles: STYLES }));
  });

  it.each([
    ['a date cell without a date', '<sheetData><row r="1"><c r="A1" t="d"/></row></sheetData>'],
    ['rows out of order', '<sheetData><row r="2"><c r="A2"><v>1</v></c></row><row r="1"><c r="A1"><v>2</v></c></row></sheetData>'],
    ['a cell whose reference names another row', '<sheetData><row r="1"><c r="A2"><v>1</v></c></row></sheetData>'],
    ['a shared string that is not there', '<sheetData><row r="1"><c r="A1" t="s"><v>99</v></c></row></sheetData>'],
    ['an unclosed sheet', '<sheetData><row r="1"><c r="A1"><v>1</v></c></row>'],
  ])('%s: declined, read by SheetJS', async (_what, sheet) => {
    await expectDeclinedAndSameAsSheetjs(handMade([sheet], { strings: '<si><t>x</t></si>' }));
  });

  it('a prefixed main namespace: declined, read by SheetJS', async () => {
    const bytes = buildZip([
      {
        name: '[Content_Types].xml',
        data: '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>',
      },
      {
        name: 'xl/workbook.xml',
        data: `<x:workbook xmlns:x="${MAIN}" xmlns:r="${REL}"><x:sheets><x:sheet name="s" sheetId="1" r:id="rId1"/></x:sheets></x:workbook>`,
      },
      {
        name: 'xl/_rels/workbook.xml.rels',
        data: `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
      },
      {
        name: 'xl/worksheets/sheet1.xml',
        data: `<x:worksheet xmlns:x="${MAIN}"><x:sheetData><x:row r="1"><x:c r="A1"><x:v>1</x:v></x:c></x:row></x:sheetData></x:worksheet>`,
      },
    ]);
    await expectDeclinedAndSameAsSheetjs(bytes);
  });
});

describe('xlsx reader: bad input keeps its errors', () => {
  const good = writtenWorkbook({ sst: true, date1904: false, rows: 30 });
  it.each([
    ['a truncated zip', good.subarray(0, good.length - 200)],
    ['a zip that is no workbook', buildZip([{ name: 'hello.txt', data: 'hello' }])],
    ['a workbook without sheets', handMade([])],
    [
      'content types without a workbook',
      buildZip([{ name: '[Content_Types].xml', data: '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>' }]),
    ],
  ])('%s: the same outcome as SheetJS', async (_what, bytes) => {
    await expectAutoSameAsSheetjs(bytes);
  });

  it('a zip that is no workbook is declined before any sheet is read', async () => {
    await expect(read(buildZip([{ name: 'hello.txt', data: 'hello' }]), 'xlsx-reader', VARIANTS[0])).rejects.toBeInstanceOf(Declined);
  });
});
