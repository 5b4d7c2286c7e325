/** The privacy policy and terms of service (spec section 9), as sections of plain text. */

export interface LegalSection {
  heading: string;
  paragraphs: string[];
}

export interface LegalDocument {
  title: string;
  intro: string;
  sections: LegalSection[];
  lastUpdated: string;
}

export const PRIVACY_POLICY: LegalDocument = {
  title: 'Privacy Policy',
  intro: 'Your privacy matters to us. This policy explains what we collect when you use our website or services, why, and the choices you have.',
  lastUpdated: 'November 2026',
  sections: [
    {
      heading: 'Information we collect',
      paragraphs: [
        'Personal information: your name, e-mail address and phone number when you book or send us a message.',
        'Booking information: the service, date, time and, for on-site service, the address where we clean your vehicle.',
        'Vehicle information: the size or type of your vehicle and any notes you give us about it.',
        'Payment information: how you paid for a completed service. We do not store card numbers on this website.',
      ],
    },
    {
      heading: 'How we use it',
      paragraphs: [
        'To confirm, carry out and follow up your bookings, to answer your messages, and, if you agree, to tell you about offers.',
      ],
    },
    {
      heading: 'Sharing',
      paragraphs: ['We do not sell your information. We share it only where the law requires us to or where it is needed to provide the service you asked for.'],
    },
    {
      heading: 'What we keep, and for how long',
      paragraphs: [
        'We keep your name, e-mail address, phone number, address, landmark and notes with each booking, the messages you send us, and the e-mails we send you (what they said and whether they were delivered).',
        'Two years (24 months) after a booking’s appointment, and two years after a message reaches us, we erase the personal details they hold. We keep the date, the service, the amount paid and any tax-invoice number, without your name or contact details, because the law requires business records to be kept for tax.',
        'The contents of the e-mails we send you are deleted 90 days after they are delivered; we keep only that an e-mail was sent, and when.',
      ],
    },
    {
      heading: 'Your rights',
      paragraphs: [
        'Under the Privacy Act 2020 you can ask us for a copy of everything we hold about you (access), to correct any of it (correction), or to erase it (erasure). Contact us by e-mail or phone using the details below, from the e-mail address or phone number you booked with, so that we can confirm it is you.',
        'We answer within 20 working days. A copy is sent to you as a file (JSON or a spreadsheet); a correction is made on all your bookings; an erasure removes your details from every booking, message and e-mail we hold and cannot be undone. Your booking links stop working once your details are erased.',
        'You can opt out of promotional messages at any time. If you are not satisfied with our answer, you can complain to the Office of the Privacy Commissioner (privacy.org.nz).',
      ],
    },
    {
      heading: 'Security',
      paragraphs: ['Booking information is stored securely and is only available to our staff.'],
    },
  ],
};

export const TERMS_OF_SERVICE: LegalDocument = {
  title: 'Terms of Service',
  intro: 'These terms apply to every booking made on our website, by phone or in person.',
  lastUpdated: 'May 2024',
  sections: [
    {
      heading: 'Bookings, cancellations and rescheduling',
      paragraphs: [
        'Please give us at least 24 hours’ notice to cancel or reschedule a booking.',
        'No-shows or late cancellations may incur a fee.',
      ],
    },
    {
      heading: 'Payment',
      paragraphs: ['Payment is due on completion of the service, by cash, bank transfer or other approved methods.'],
    },
    {
      heading: 'Prices',
      paragraphs: ['Prices are for vehicles in normal condition. Prices may vary with the condition of the vehicle (for example heavy soiling, pet hair or stains); we will tell you before we start.'],
    },
    {
      heading: 'Weather and delays',
      paragraphs: ['We may reschedule an appointment because of weather or unforeseen delays. We will contact you as early as we can and find a new time that suits you.'],
    },
    {
      heading: 'Our guarantee',
      paragraphs: ['If you are not satisfied with any part of the service, tell us within 24 hours and we will re-clean it free of charge.'],
    },
  ],
};
