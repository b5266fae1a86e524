import type { presentField } from './service.js';

/**
 * The `responseFormat: md` renderings: compact text for language-model clients.
 * Cells use the full-width bar `｜` as the public service does, so that `|` inside text is safe.
 */
export function worksheetListMarkdown(rows: Array<{ id: string; name: string; remark: string }>): string {
  return ['id｜name｜remark', ...rows.map((r) => `${r.id}｜${r.name}｜${r.remark}`)].join('\n');
}

export function worksheetMarkdown(worksheet: {
  worksheetId: string;
  name: string;
  fields: Array<ReturnType<typeof presentField>>;
  views: Array<{ id: string; name: string; type: number }>;
}): string {
  const lines = [`# ${worksheet.name} (${worksheet.worksheetId})`, '', '## views', 'id｜name｜type'];
  for (const view of worksheet.views) lines.push(`${view.id}｜${view.name}｜${view.type}`);
  lines.push('', '## fields', 'id｜name｜alias｜type｜required｜options');
  for (const f of worksheet.fields) {
    const options = f.options.length ? JSON.stringify(f.options.map((o) => ({ Key: o.key, Value: o.value }))) : '';
    lines.push(`${f.id}${f.isTitle ? '(isTitle)' : ''}｜${f.name}｜${f.alias}｜${f.type}｜${f.required}｜${options}`);
  }
  return lines.join('\n');
}
