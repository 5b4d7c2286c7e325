/** Step 3's price: the list price, the first-service discount when it applies, the travel fee on site, and the total. */
import { FIRST_SERVICE_DISCOUNT_PERCENT } from '#domain/catalogue.ts';
import { discountLabel, formatNzd, TRAVEL_FEE_LABEL, type Quote } from '#domain/pricing.ts';
import './QuoteBreakdown.css';

/** `emailEntered`: the quote is for the customer's e-mail, so it already says whether the discount applies. */
export function QuoteBreakdown({ quote, emailEntered }: { quote: Quote; emailEntered: boolean }) {
  return (
    <section className="quote" aria-labelledby="quote-title">
      <h3 id="quote-title">Your price</h3>
      {/* Announced when the discount appears after the e-mail is entered. */}
      <dl aria-live="polite">
        <div>
          <dt>List price</dt>
          <dd>{formatNzd(quote.listPriceCents)}</dd>
        </div>
        {quote.discount && (
          <div className="quote-discount">
            <dt>{discountLabel(quote.discount)}</dt>
            <dd>{`−${formatNzd(quote.discountCents)}`}</dd>
          </div>
        )}
        {quote.travelFeeCents > 0 && (
          <div>
            <dt>{TRAVEL_FEE_LABEL}</dt>
            <dd>{formatNzd(quote.travelFeeCents)}</dd>
          </div>
        )}
        <div className="quote-total">
          <dt>Total</dt>
          <dd>{formatNzd(quote.totalCents)}</dd>
        </div>
      </dl>
      {!emailEntered && <p className="quote-note">{`New customers get ${FIRST_SERVICE_DISCOUNT_PERCENT}% off their first service, shown once you enter your e-mail.`}</p>}
    </section>
  );
}
