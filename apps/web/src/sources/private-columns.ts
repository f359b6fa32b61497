/** The column selection modal's choice for one column (spec: Hash, and Exclude / Mask / Plain). */
export interface ColumnChoice {
  hash: boolean;
  /** A hashed column hashed as a CLK (fuzzy: near values stay near), not as an exact keyed hash. */
  fuzzy?: boolean;
  format: 'exclude' | 'mask' | 'plain';
}

/** The choices as the API takes them (encryptList or hashedList, fuzzyList, formatList), by header name. */
export function choicesToFields(
  headers: string[],
  choices: ColumnChoice[],
): { hashed: string[]; fuzzy: string[]; formatList: Array<{ column: string; format: 'exclude' | 'mask' }> } {
  const hashed: string[] = [];
  const fuzzy: string[] = [];
  const formatList: Array<{ column: string; format: 'exclude' | 'mask' }> = [];
  headers.forEach((header, i) => {
    const choice = choices[i] ?? { hash: false, format: 'plain' };
    if (choice.format !== 'plain') formatList.push({ column: header, format: choice.format });
    if (choice.hash && choice.format !== 'exclude') {
      hashed.push(header);
      if (choice.fuzzy) fuzzy.push(header);
    }
  });
  return { hashed, fuzzy, formatList };
}

export const plainChoices = (count: number): ColumnChoice[] => Array.from({ length: count }, () => ({ hash: false, format: 'plain' }));
