/**
 * Lays out one SQL statement for reading (the repositories' SQL files, test/store/repositories/sql/):
 * each clause on a line of its own, select and set lists and values rows one to a line, conditions
 * joined by and/or one to a line, subqueries and parenthesised conditions indented. Only whitespace
 * changes: the statement's words and their order are the compiler's (whitespace inside quotes is kept).
 */

const CLAUSES = [
  'do update set',
  'insert into',
  'delete from',
  'order by',
  'group by',
  'inner join',
  'left join',
  'on conflict',
  'select',
  'from',
  'where',
  'having',
  'limit',
  'offset',
  'returning',
  'values',
  'update',
  'set',
  'with',
  'union',
].map((clause) => clause.split(' '));

/** Clauses whose items go one to a line. */
const LISTS = new Set(['select', 'set', 'do update set', 'values']);

/** Words after which a parenthesis holds conditions. */
const LOGICAL = new Set(['where', 'and', 'or', 'having', 'on', 'not', '(']);

/** Words that open a subquery when they follow a parenthesis. */
const STATEMENTS = new Set(['select', 'with', 'insert', 'update', 'delete']);

const TOKEN = /'(?:[^']|'')*'|"(?:[^"]|"")*"|\s+|[A-Za-z_][A-Za-z0-9_]*|\$\d+|./gs;

interface Frame {
  /** block: a subquery; logic: conditions; inline: a function's arguments, a list of values, columns. */
  kind: 'top' | 'block' | 'logic' | 'inline';
  /** Indent of the frame's lines, and of its closing parenthesis. */
  indent: number;
  close: number;
  /** In a clause whose items go one to a line. */
  list: boolean;
}

export function formatSql(text: string): string {
  const tokens = (text.match(TOKEN) ?? []).map((t) => (/^\s+$/.test(t) ? ' ' : t));
  const stack: Frame[] = [{ kind: 'top', indent: 0, close: 0, list: false }];
  let out = '';
  let previous = '';
  const lineIndent = () => ((/(?:^|\n)( *)[^\n]*$/.exec(out)?.[1] ?? '').length / 2) | 0;
  const newLine = (indent: number) => {
    out = out.replace(/ +$/, '');
    if (out !== '' && !out.endsWith('\n')) out += '\n';
    out += '  '.repeat(indent);
  };
  const next = (from: number) =>
    tokens
      .slice(from)
      .find((t) => t !== ' ')
      ?.toLowerCase() ?? '';
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as string;
    const word = token.toLowerCase();
    if (token === ' ') {
      if (!/(^|\n| )$/.test(out) && !/\n +$/.test(out)) out += ' ';
      continue;
    }
    const frame = stack[stack.length - 1] as Frame;
    const atStatement = frame.kind === 'top' || frame.kind === 'block';
    const clause = atStatement && previous !== 'distinct' ? clauseAt(tokens, i) : null;
    if (clause) {
      frame.list = LISTS.has(clause.name);
      newLine(frame.indent);
      out += clause.text;
      i = clause.end;
      if (frame.list) newLine(frame.indent + 1);
      previous = clause.name.split(' ').at(-1) as string;
      continue;
    }
    if ((word === 'and' || word === 'or') && frame.kind !== 'inline') {
      newLine(frame.indent + (frame.kind === 'logic' ? 0 : 1));
    } else if (token === '(') {
      const kind = STATEMENTS.has(next(i + 1)) ? 'block' : LOGICAL.has(previous) ? 'logic' : 'inline';
      const at = lineIndent();
      stack.push(
        kind === 'inline' ? { ...frame, kind, list: false } : { kind, indent: at + 1, close: at, list: false },
      );
      out += token;
      if (kind !== 'inline') newLine(at + 1);
      previous = token;
      continue;
    } else if (token === ')' && stack.length > 1) {
      const closed = stack.pop() as Frame;
      if (closed.kind !== 'inline') newLine(closed.close);
    }
    out += token;
    if (token === ',' && frame.list && atStatement) newLine(frame.indent + 1);
    previous = word;
  }
  return out.replace(/ +$/gm, '').trim();
}

/** The clause whose first word is tokens[at], with its text and the index of its last token. */
function clauseAt(tokens: readonly string[], at: number): { name: string; text: string; end: number } | null {
  for (const words of CLAUSES) {
    let i = at;
    const seen: string[] = [];
    for (const word of words) {
      while (tokens[i] === ' ' && seen.length > 0) i++;
      if (tokens[i]?.toLowerCase() !== word) break;
      seen.push(tokens[i] as string);
      i++;
    }
    if (seen.length === words.length) return { name: words.join(' '), text: seen.join(' '), end: i - 1 };
  }
  return null;
}
