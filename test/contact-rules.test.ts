import t from 'tap';
import { isContactPhone, validateContact } from '../src/domain/contact-rules.ts';

const valid = { name: 'Tane Walker', email: 'tane@example.com', phone: '+64 21 555 1234', message: 'Do you clean boats?' };

t.test('the six checks run in the original order with its messages', async (t) => {
  t.same(validateContact({ name: '', email: '', phone: '', message: '' }).map((e) => e.message), [
    'Please enter your name',
    'Please enter your email',
    'Please enter your phone number',
    'Please enter your message',
  ]);
  t.same(validateContact({ ...valid, phone: '0', email: 'bad' }).map((e) => e.message), [
    'Please enter a valid phone number',
    'Please enter a valid email address',
  ]);
  t.same(validateContact(valid), []);
});

t.test('phone numbers: international and New Zealand local forms are accepted', async (t) => {
  for (const phone of ['+6421555123', '021 555 1234', '(09) 555-0199', '6495550199']) t.ok(isContactPhone(phone), phone);
  for (const phone of ['0', '+0', 'abc', '+1', '1234567890123456']) t.notOk(isContactPhone(phone), phone);
});

t.test('overlong fields are refused', async (t) => {
  t.same(validateContact({ ...valid, message: 'x'.repeat(5001) }), [{ field: 'message', message: 'Please keep this under 5000 characters' }]);
});
