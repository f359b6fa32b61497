import { escapeHtml, MissingTemplateVariableError, renderHtmlTemplate, renderMailTemplate, renderPlainTemplate } from './mail-template';

describe('mail templates', () => {
  it('fills placeholders, with or without inner spaces, as often as they occur', () => {
    expect(renderPlainTemplate('Hello {{name}}, your link: {{ link }} ({{name}})', { name: 'Ayşe', link: 'http://x/a?b=1&c=2' })).toBe(
      'Hello Ayşe, your link: http://x/a?b=1&c=2 (Ayşe)',
    );
  });

  it('throws on a placeholder without a value and ignores unused values', () => {
    expect(() => renderPlainTemplate('Hi {{ nmae }}', { name: 'x' })).toThrow(MissingTemplateVariableError);
    expect(renderPlainTemplate('static', { unused: 'x' })).toBe('static');
  });

  it('does not expand placeholders that arrive inside values', () => {
    expect(renderPlainTemplate('{{a}}', { a: '{{b}}', b: 'no' })).toBe('{{b}}');
  });

  it('HTML-escapes values in the html variant but keeps the template markup', () => {
    expect(renderHtmlTemplate('<p>Hi {{name}}</p>', { name: `<script>alert("x")</script> & 'co'` })).toBe(
      '<p>Hi &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39;</p>',
    );
    expect(escapeHtml('a&b')).toBe('a&amp;b');
  });

  it('renders a whole template: plain subject and text, escaped html', () => {
    const template = { subject: 'Welcome {{name}}', text: 'Hi {{name}}', html: '<b>{{name}}</b>' };
    expect(renderMailTemplate(template, { name: 'A<B' })).toEqual({ subject: 'Welcome A<B', text: 'Hi A<B', html: '<b>A&lt;B</b>' });
    expect(renderMailTemplate({ subject: 's', text: 't' }, {})).toEqual({ subject: 's', text: 't' });
  });
});
