/**
 * Contact (spec section 2): info cards, the 'Send us a Message' form, the map, social links and a
 * call to action. The form checks the six rules of spec section 5 in order and shows each message
 * beside its field; with JavaScript off it posts to /contact and the server does the same. Either
 * way a message sent twice (a retry, a double post) is stored once: see submissionKeys, and the
 * form guard's cookie (src/routes/pages/contact.ts).
 */
import { Honeypot } from '../components/Honeypot.tsx';
import { useState, type FormEvent } from 'react';
import { HOURS, telHref, type BusinessInfo } from '#domain/business.ts';
import { CONTACT_LIMITS, validateContact, type ContactInput } from '#domain/contact-rules.ts';
import { MESSAGES, type FieldError } from '#domain/messages.ts';
import { CallToAction } from '../components/CallToAction.tsx';
import { FeatureCard } from '../components/blocks.tsx';
import { SocialLinks } from '../components/SocialLinks.tsx';
import { TextAreaField, TextField, errorFor, focusFirstError } from '../components/Field.tsx';
import { Icon } from '../components/Icon.tsx';
import { PageHero } from '../components/PageHero.tsx';
import { postJson } from '../lib/api.ts';
import { submissionKeys } from '../lib/submission-keys.ts';
import { showToast } from '../lib/toast.ts';
import { useHydrated } from '../lib/use-hydrated.ts';
import type { PageProps } from '../page-props.ts';
import type { ContactState } from '../page-state.ts';
import './ContactPage.css';

const EMPTY: ContactInput = { name: '', email: '', phone: '', message: '' };
const ID = 'contact';

function InfoCards({ business }: { business: BusinessInfo }) {
  return (
    <ul className="card-grid four info-cards">
      <FeatureCard icon="pin" title="Visit Us" heading="h2">
        <address>
          {business.streetAddress}
          <br />
          {business.suburb}, {business.city} {business.postcode}
        </address>
      </FeatureCard>
      <FeatureCard icon="phone" title="Call Us" heading="h2">
        <p>
          <a href={telHref(business.phone)}>{business.phone}</a>
          <br />
          <a href={telHref(business.phoneSecondary)}>{business.phoneSecondary}</a>
        </p>
      </FeatureCard>
      <FeatureCard icon="mail" title="Email Us" heading="h2">
        <p>
          <a href={`mailto:${business.email}`}>{business.email}</a>
        </p>
      </FeatureCard>
      <FeatureCard icon="clock" title="Business Hours" heading="h2">
        <p>{HOURS.contactPage}</p>
      </FeatureCard>
    </ul>
  );
}

/**
 * The embedded map, requested once the page is interactive (issue 24): the map's document comes
 * from another origin, and requested with the page it competed with the first paint on a phone's
 * connection (Lighthouse counted it as render-blocking: LCP 1.4 s instead of 0.7). Until then a
 * box of the map's size holds its place, so nothing moves; without JavaScript the map is the
 * `<noscript>` one, requested with the page as before.
 */
function BusinessMap({ business }: { business: BusinessInfo }) {
  const hydrated = useHydrated();
  const map = <iframe className="map" title={`Map of ${business.streetAddress}, ${business.suburb}`} src={business.mapEmbedUrl} loading="lazy" referrerPolicy="no-referrer-when-downgrade" />;
  if (hydrated) return map;
  return (
    <>
      <div className="map" aria-hidden="true" />
      <noscript>{map}</noscript>
    </>
  );
}

function ContactForm({ state }: { state: ContactState }) {
  const hydrated = useHydrated();
  const [values, setValues] = useState<ContactInput>(state.values);
  const [errors, setErrors] = useState<FieldError[]>(state.errors);
  const [loading, setLoading] = useState(false);
  const [keys] = useState(submissionKeys);
  const set = (field: keyof ContactInput) => (value: string) => setValues((v) => ({ ...v, [field]: value }));

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateContact(values);
    setErrors(found);
    if (found.length > 0) {
      focusFirstError(ID, found);
      return;
    }
    setLoading(true);
    try {
      const answer = await postJson('/v1/contact-us-form', values, keys.keyFor(values));
      if (answer.status === 201) {
        keys.succeeded();
        void showToast('success', answer.message ?? MESSAGES.contactReceived);
        setValues(EMPTY);
      } else {
        setErrors(answer.errors);
        void showToast('error', answer.message ?? MESSAGES.somethingWentWrong);
      }
    } catch {
      void showToast('error', MESSAGES.somethingWentWrong);
    } finally {
      setLoading(false);
    }
  };

  return (
    <form className="card form" method="post" action="/contact#send-message" noValidate={hydrated} onSubmit={onSubmit} aria-labelledby="send-message">
      <h2 id="send-message">Send us a Message</h2>
      <Honeypot />
      {state.submission && <input type="hidden" name="submission" value={state.submission} />}
      {state.sent && (
        <p className="notice notice-success" role="status">
          <Icon name="check" /> {MESSAGES.contactReceived}
        </p>
      )}
      {state.formError && (
        <p className="notice notice-error" role="alert">
          {state.formError}
        </p>
      )}
      <TextField idPrefix={ID} name="name" label="Your Name" value={values.name} onChange={set('name')} error={errorFor(errors, 'name')} autoComplete="name" maxLength={CONTACT_LIMITS.name} required nativeRequired />
      <TextField idPrefix={ID} name="email" type="email" label="Email Address" value={values.email} onChange={set('email')} error={errorFor(errors, 'email')} autoComplete="email" maxLength={CONTACT_LIMITS.email} required nativeRequired />
      <TextField idPrefix={ID} name="phone" type="tel" label="Phone Number" value={values.phone} onChange={set('phone')} error={errorFor(errors, 'phone')} autoComplete="tel" maxLength={CONTACT_LIMITS.phone} required nativeRequired />
      <TextAreaField idPrefix={ID} name="message" label="Message" value={values.message} onChange={set('message')} error={errorFor(errors, 'message')} maxLength={CONTACT_LIMITS.message} required nativeRequired />
      <button type="submit" className="button button-accent button-large" disabled={loading}>
        {loading ? 'Sending...' : 'Send Message'}
      </button>
    </form>
  );
}

export default function ContactPage({ business, state }: PageProps<ContactState>) {
  return (
    <>
      <PageHero eyebrow="Get in touch" title="Contact Us">
        <p>Questions, quotes or fleet enquiries: call, e-mail, visit or send us a message.</p>
      </PageHero>
      <section className="section" aria-label="How to reach us">
        <div className="container">
          <InfoCards business={business} />
        </div>
      </section>
      <section className="section section-tint" aria-label="Message and map">
        <div className="container contact-grid">
          <ContactForm state={state} />
          <div className="map-column">
            <BusinessMap business={business} />
            <div className="card">
              <h2>Follow Us</h2>
              <SocialLinks business={business} />
            </div>
          </div>
        </div>
      </section>
      <CallToAction title="Ready to Transform Your Vehicle?" text="Book online in a minute, or call us and we will find a time that suits you." secondary={{ href: telHref(business.phone), label: 'Call Us Now' }} />
    </>
  );
}
