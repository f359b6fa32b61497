import { InvalidMailActionError, productLink, renderPlainMail } from './plain-mail';

describe('the plain mail layout', () => {
  const publicUrl = 'https://catalogue.example.com/';

  it('lays out greeting, paragraphs, the call to action under PUBLIC_URL and the sign-off, in text and HTML', () => {
    const mail = renderPlainMail(
      {
        subject: 'New data request',
        greeting: 'Hello Ada,',
        paragraphs: ['Grace asked for "Rainfall".', 'Review it soon.'],
        action: { label: 'Open the request', path: '/#/request?id=7' },
        signOff: 'Thanks,\nThe catalogue',
      },
      publicUrl,
    );
    expect(mail.subject).toBe('New data request');
    expect(mail.text).toBe(
      'Hello Ada,\n\nGrace asked for "Rainfall".\n\nReview it soon.\n\nOpen the request: https://catalogue.example.com/#/request?id=7\n\nThanks,\nThe catalogue\n',
    );
    expect(mail.html).toContain('<p>Hello Ada,</p>\n<p>Grace asked for &quot;Rainfall&quot;.</p>\n<p>Review it soon.</p>');
    expect(mail.html).toContain('<a href="https://catalogue.example.com/#/request?id=7"');
    expect(mail.html).toContain('>Open the request</a>');
    expect(mail.html).toContain('<p>Thanks,<br>The catalogue</p>');
  });

  it('greets and signs off by default and leaves the action out when there is none', () => {
    const mail = renderPlainMail({ subject: 'Hi', paragraphs: ['Just so you know.'] }, publicUrl);
    expect(mail.text).toBe('Hello,\n\nJust so you know.\n\nThe Data Catalogue team\n');
    expect(mail.html).not.toContain('<a ');
  });

  it('escapes every value in the HTML part, and keeps the text part as written', () => {
    const evil = `<script>alert('x')</script> & "friends"`;
    const mail = renderPlainMail(
      { subject: evil, greeting: evil, paragraphs: [evil], action: { label: evil, path: '/#/x?a=1&b="2"' }, signOff: evil },
      publicUrl,
    );
    expect(mail.html).not.toContain('<script>');
    expect(mail.html.match(/&lt;script&gt;alert\(&#39;x&#39;\)&lt;\/script&gt; &amp; &quot;friends&quot;/g)).toHaveLength(4);
    expect(mail.html).toContain('href="https://catalogue.example.com/#/x?a=1&amp;b=&quot;2&quot;"');
    expect(mail.text).toContain(`${evil}\n\n${evil}`);
  });

  it('takes only paths of the product as the action, so a mail never links elsewhere', () => {
    expect(productLink('https://catalogue.example.com/base/', '/#/login')).toBe('https://catalogue.example.com/base/#/login');
    for (const path of ['https://evil.example/', '//evil.example/x', 'javascript:alert(1)', '#/login']) {
      expect(() => productLink(publicUrl, path)).toThrow(InvalidMailActionError);
    }
  });
});
