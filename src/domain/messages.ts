/**
 * Every message a customer can be shown about their input. The spec's wording (section 5) is kept
 * exactly; messages for rules the original only enforced in the browser (or not at all) follow
 * the same voice.
 */
export const MESSAGES = {
  serviceRequired: 'Please select a service package',
  serviceUnknown: 'Please select one of our service packages',
  coatingRequired: 'Please select a coating type (1 Year or 3 Year)',
  coatingNotAllowed: 'A coating type can only be chosen with Ceramic Coating',
  vehicleTypeRequired: 'Please select your vehicle size',
  selectedVehicleTypeInvalid: 'Please select a vehicle size from the list',
  dateRequired: 'Please select a date',
  dateInvalid: 'Please select a valid date',
  datePast: 'Please select a future date for your appointment.',
  dateTooFar: 'Please select a date within the next 12 months',
  timeRequired: 'Please select a time',
  timeInvalid: 'Please select a time between 07:00 and 20:00, on the hour',
  serviceTypeRequired: 'Please choose on-site or drop-off service',
  houseNumberRequired: 'Please enter your house/unit number',
  streetAddressRequired: 'Please enter your street address',
  suburbRequired: 'Please enter your suburb',
  cityRequired: 'Please enter your city',
  postalCodeRequired: 'Please enter your postal code',
  regionRequired: 'Please select your region',
  fullNameRequired: 'Please enter your full name',
  nameRequired: 'Please enter your name',
  emailRequired: 'Please enter your email',
  emailInvalid: 'Please enter a valid email address',
  phoneRequired: 'Please enter your phone number',
  phoneInvalid: 'Please enter a valid phone number',
  messageRequired: 'Please enter your message',
  bookingCreated: 'Thank you! Your booking has been received. We will contact you shortly to confirm it.',
  contactReceived: 'Thank you for your message! We will get back to you soon.',
  slotFull: 'Sorry, that time is fully booked. Please choose another time or date.',
  slotClosed: 'Sorry, we are closed at that time. Please choose another time or date.',
  slotTravel: "Sorry, our van can't get to you in time then from its job before, or on to its next job. Please choose another time or date.",
  postalCodeInvalid: 'Please enter your 4-digit postcode',
  validationFailed: 'Please correct the highlighted fields',
  controlCharacters: 'Please remove the invisible control characters from this field',
  somethingWentWrong: 'Something went wrong',
  submissionChanged: 'This form was already sent with different details. Please check them and send it again.',
  networkError: 'We could not reach our booking system. Please check your connection and try again.',
  futureDateAlert: 'Please select a future date for your appointment.',
  honeypotFilled: "Please leave the field marked 'Leave this empty' empty, then send the form again.",
  submittedTooFast: 'That was quicker than a person can fill in this form. Please check your details and send it again.',
  formExpired: 'Please send the form again: we could not confirm it was sent from this page. (Your browser must allow cookies from this site.)',
} as const;

/**
 * Why a time cannot be booked, beyond full and closed: only the server says these (the browser
 * shows the server's words), so they are apart from MESSAGES, which every page's bundle carries.
 */
export const SLOT_MESSAGES = {
  outsideHours: 'Sorry, that time is outside our hours for this service. Please choose another time or date.',
  endsAfterClosing: 'Sorry, this service would end after closing time if it started then. Please choose an earlier time or another date.',
  taken: 'Sorry, that time has just been taken. Please choose another time or date.',
} as const;

/** An on-site booking whose postcode is in no active zone of the service area (issue 40). */
export function outsideServiceArea(business: { suburb: string; phone: string }): string {
  return `Sorry, our vans don't come to that postcode yet. You can drop your car at our ${business.suburb} service centre, or call us on ${business.phone}.`;
}

/** The wizard's answer for a postcode the vans come to (issue 40): the zone, and its fee in words ('$25.00'), if any. */
export function servedArea(zone: string, fee: string | null): string {
  return `We come to ${zone} — ${fee ? `travel fee ${fee}` : 'no travel fee'}`;
}

export function tooManyActiveBookings(max: number): string {
  return `You already have ${max} upcoming bookings with this email address. Please call us to change them or to book more.`;
}

export function tooLong(max: number): string {
  return `Please keep this under ${max} characters`;
}

/** The confirmation of a booking, with the reference the customer quotes to us. */
export function bookingReceived(reference: string, confirmWithinMinutes?: number): string {
  if (confirmWithinMinutes !== undefined) {
    return `Thank you! Your booking has been received. Your booking reference is ${reference}. Please confirm it within ${confirmWithinMinutes} minutes from the e-mail we have just sent you, or the time will be released.`;
  }
  return `Thank you! Your booking has been received. Your booking reference is ${reference}. We will contact you shortly to confirm it.`;
}

export interface FieldError {
  /** The payload key the message is about. */
  field: string;
  message: string;
}

/** Privacy requests in the dashboard (issue 22): correction and erasure of a customer's details. */
export const PRIVACY_MESSAGES = {
  correctionEmpty: 'Please change at least one detail',
  correctionAddressBlank: 'An address line cannot be left empty',
  eraseConfirmationNeeded: "Type ERASE or the customer's name to confirm: erasing cannot be undone",
} as const;
