import { z } from 'zod';
import { bidiControlMessage, withoutBidiControls } from './names';

const CONTROLS = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f', '\u061c'];

describe('names without bidi controls', () => {
  it('finds every bidi control and names it', () => {
    for (const control of CONTROLS)
      expect(bidiControlMessage(`invoice${control}txt.exe`)).toContain(`U+${control.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`);
    expect(bidiControlMessage('a\u202eb')).toBe('Remove the invisible text direction character U+202E: it can make a name show differently from what it is.');
  });

  it('leaves names in any script alone, right-to-left ones and joiners included', () => {
    for (const name of ['Ada Lovelace', 'مريم العربي', 'שלום', 'Zoë Ørsted', '北京数据', 'نقش\u200cجهان', '👩‍🔬 lab'])
      expect(bidiControlMessage(name)).toBeNull();
  });

  it("refuses a control in a schema with that message alone, before the field's other rules", () => {
    const username = withoutBidiControls(z.string().trim().min(1)).regex(/^[\w.@+-]+$/, 'Enter a valid username.');
    expect(username.safeParse('ada').success).toBe(true);
    expect(username.safeParse('ad\u202ea').error?.issues.map((issue) => issue.message)).toEqual([bidiControlMessage('\u202e')]);
  });
});
