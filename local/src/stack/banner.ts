// What `npm start` prints once everything is up: the set-up (the same facts as the page's), a note
// on the echo model and how to make it call a tool, and, last, the URL to open (scripts and tests
// wait for that line, and then everything above it is out).
import type { PageInfo } from '../web-server/web-server.ts';

export function bannerLines(info: PageInfo, url: string): string[] {
  const lines = [
    '',
    `  LLM     ${info.llm.description}`,
    `  Speech  ${info.model.description}`,
    `  Agent   ${info.target.description}`,
  ];
  if (info.region) lines.push(`  Region  ${info.region.name} (${info.region.source})`);
  if (info.auth) lines.push(`  Sign-in ${info.auth.description}`);
  if (info.tools)
    lines.push(
      `  Tools   ${info.tools.length > 0 ? info.tools.map((t) => t.name).join(', ') : 'none (npm start -- --help lists the built-in ones)'}`,
    );
  if (info.llm.name === 'echo') {
    lines.push(
      '',
      '  Note: the echo model is in use, so answers repeat your prompt. For a real LLM: --llm bedrock',
      '  (AWS credentials) or --llm openai (OPENAI_BASE_URL, OPENAI_MODEL).',
    );
    const directives = (info.tools ?? []).flatMap((t) => (t.echo ? [t.echo] : []));
    if (directives.length > 0)
      lines.push(
        '  It calls a tool when the prompt holds its directive, and then says what follows it with',
        '  {result} replaced by the result:',
        ...directives.map((d) => `    ${d}`),
      );
  }
  lines.push('', `  Open ${url} in your browser. Ctrl-C stops.`);
  return lines;
}
