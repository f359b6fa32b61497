import { readFileSync } from 'node:fs';

/** Just enough Dockerfile parsing to check the image without a Docker engine. */

export interface Instruction {
  keyword: string;
  args: string;
}

export interface Stage {
  image: string;
  name?: string;
  instructions: Instruction[];
}

/** Instructions in order, with line continuations joined and comments and parser directives dropped. */
export function parseInstructions(text: string): Instruction[] {
  const logical: string[] = [];
  let current = '';
  for (const line of text.split('\n')) {
    if (/^\s*#/.test(line)) continue;
    if (/\\\s*$/.test(line)) {
      current += line.replace(/\\\s*$/, ' ');
      continue;
    }
    current += line;
    if (current.trim()) logical.push(current.trim());
    current = '';
  }
  if (current.trim()) logical.push(current.trim());
  return logical.map((line) => {
    const [, keyword, args] = /^(\S+)\s*(.*)$/.exec(line) as RegExpExecArray;
    return { keyword: keyword.toUpperCase(), args: args.replace(/\s+/g, ' ') };
  });
}

/** Build stages, with `ARG` defaults declared before the first FROM substituted into FROM lines. */
export function parseDockerfile(file: string): Stage[] {
  const globalArgs: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const instruction of parseInstructions(readFileSync(file, 'utf8'))) {
    if (instruction.keyword === 'ARG' && stages.length === 0) {
      const [name, value = ''] = instruction.args.split('=');
      globalArgs[name] = value;
    } else if (instruction.keyword === 'FROM') {
      const [image, as, name] = instruction.args.replace(/--platform=\S+\s*/, '').split(' ');
      const resolved = image.replace(/\$\{?(\w+)\}?/g, (_match, arg: string) => globalArgs[arg] ?? '');
      stages.push({ image: resolved, name: as?.toUpperCase() === 'AS' ? name : undefined, instructions: [] });
    } else if (stages.length > 0) {
      stages[stages.length - 1].instructions.push(instruction);
    }
  }
  return stages;
}

/** The JSON (exec) form of CMD/ENTRYPOINT as an array, or the shell form wrapped like Docker does. */
export function execForm(args: string): string[] {
  return args.startsWith('[') ? (JSON.parse(args) as string[]) : ['/bin/sh', '-c', args];
}
