const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

export class MissingTemplateVariableError extends Error {
  constructor(readonly variable: string) {
    super(`Mail template variable "${variable}" has no value`);
    this.name = 'MissingTemplateVariableError';
  }
}

/**
 * Fills `{{ name }}` placeholders with the given values, as they are. A placeholder without a
 * value throws, so a typo never sends a mail with a hole in it.
 */
export function renderPlainTemplate(template: string, vars: Record<string, string>): string {
  return render(template, vars, (value) => value);
}

/** As renderPlainTemplate, but HTML-escapes every value (the template's own markup is kept). */
export function renderHtmlTemplate(template: string, vars: Record<string, string>): string {
  return render(template, vars, escapeHtml);
}

export interface MailTemplate {
  subject: string;
  text: string;
  html?: string;
}

/** Renders a whole template: subject and text as plain text, html with escaping. */
export function renderMailTemplate(template: MailTemplate, vars: Record<string, string>): MailTemplate {
  const rendered: MailTemplate = { subject: renderPlainTemplate(template.subject, vars), text: renderPlainTemplate(template.text, vars) };
  if (template.html !== undefined) rendered.html = renderHtmlTemplate(template.html, vars);
  return rendered;
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

function render(template: string, vars: Record<string, string>, encode: (value: string) => string): string {
  // A single pass: values are never scanned for placeholders themselves.
  return template.replace(PLACEHOLDER, (_match, name: string) => {
    if (!Object.prototype.hasOwnProperty.call(vars, name)) throw new MissingTemplateVariableError(name);
    return encode(String(vars[name]));
  });
}
