/** A Markdown document cut at its headings: each section's offset and text, the heading line included. */
export function headingSections(text: string): Array<{ start: number; body: string }> {
  const sections: Array<{ start: number; body: string }> = [];
  let start = 0;
  for (const m of text.matchAll(/^#{1,6}\s/gm)) {
    if (m.index > start) sections.push({ start, body: text.slice(start, m.index) });
    start = m.index;
  }
  sections.push({ start, body: text.slice(start) });
  return sections;
}
