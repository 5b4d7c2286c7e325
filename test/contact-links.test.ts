/** The inbox's mailto: and tel: links are encoded, whatever the address someone typed (issue 12, finding 9). */
import t from 'tap';
import { mailtoHref, telHref } from '#client/lib/contact-links.ts';

t.test('an ordinary address is linked as it is', async (t) => {
  t.equal(mailtoHref('tane@example.com'), 'mailto:tane@example.com');
  t.equal(mailtoHref('mere.ngata+valet@example.co.nz'), 'mailto:mere.ngata%2Bvalet@example.co.nz');
});

t.test('an address cannot add headers, recipients or a fragment to the link', async (t) => {
  const href = mailtoHref('a@b.co?cc=all@example.com&subject=Hi&body=Click%20here#x');
  t.equal(href, 'mailto:a%40b.co%3Fcc%3Dall@example.com%26subject%3DHi%26body%3DClick%2520here%23x', 'split at the last @, each side encoded');
  const url = new URL(href);
  t.equal(url.search, '', 'no query of its own');
  t.equal(url.hash, '', 'no fragment');
  t.equal(decodeURIComponent(url.pathname), 'a@b.co?cc=all@example.com&subject=Hi&body=Click%20here#x', 'the whole text is the address');
  t.equal(mailtoHref('"x y"@[::1]'), 'mailto:%22x%20y%22@%5B%3A%3A1%5D');
  t.equal(mailtoHref('javascript:alert(1)//'), 'mailto:javascript%3Aalert(1)%2F%2F', 'no scheme of its own either');
});

t.test('subject and body are encoded too', async (t) => {
  const href = mailtoHref('tane@example.com', { subject: 'Re: your message & quote', body: 'Kia ora\nLine two' });
  t.equal(href, 'mailto:tane@example.com?subject=Re%3A%20your%20message%20%26%20quote&body=Kia%20ora%0ALine%20two');
  t.same(Object.fromEntries(new URL(href).searchParams), { subject: 'Re: your message & quote', body: 'Kia ora\nLine two' });
});

t.test('a phone link keeps digits and plus only', async (t) => {
  t.equal(telHref('+64 (21) 555-1234'), 'tel:+64215551234');
  t.equal(telHref('021 555 1234?x=<script>'), 'tel:0215551234');
});
