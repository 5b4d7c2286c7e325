/**
 * The pricing page's questions and answers, in a module of their own so that the page's bundle
 * carries them and not the rest of the marketing content (src/domain/content.ts).
 */
export interface FaqItem {
  question: string;
  answer: string;
}

/** The pricing page's FAQ: the spec gives the topics; the full answers are ours. */
export const FAQ: readonly FaqItem[] = [
  {
    question: 'How long does a service take?',
    answer: 'A Quick Clean takes 1-2 hours. An Ultimate Clean or a Ceramic Coating takes 4-8 hours, depending on the size and condition of the vehicle.',
  },
  {
    question: 'Do you come to me, or do I drop the car off?',
    answer: 'Either. When you book you choose on-site service at your home or workplace, or drop-off at our Mount Wellington service centre.',
  },
  {
    question: 'What is ceramic coating?',
    answer: 'A liquid ceramic layer that bonds to the paint and hardens into a clear, glossy shell. It repels water and dirt, resists UV and light scratches, and makes washing much easier.',
  },
  {
    question: 'How often should I have my car cleaned?',
    answer: 'We suggest a Quick Clean every 2-4 weeks, a Deluxe Clean every 3-4 months and an Ultimate Clean every 6 months. A ceramic coating lasts 1-3 years depending on the option.',
  },
  {
    question: 'Are your products eco-friendly?',
    answer: 'Yes. We use biodegradable, pH-balanced products and water-wise washing methods that are safe for your car, your driveway and the environment.',
  },
];
