/** Every page component, for the server, which renders any page synchronously. */
import type { ComponentType } from 'react';
import type { PageProps } from '../page-props.ts';
import type { PageModule } from '../routes.ts';
import { provideLaterSteps } from '../components/booking/later-steps-loader.ts';
import * as laterStepsModule from '../components/booking/later-steps.ts';
import AboutPage from './AboutPage.tsx';
import BookingPage from './BookingPage.tsx';
import ContactPage from './ContactPage.tsx';
import DashboardPage from '../staff/pages/DashboardPage.tsx';
import FindBookingPage from './FindBookingPage.tsx';
import HomePage from './HomePage.tsx';
import InsightsPage from '../staff/pages/InsightsPage.tsx';
import InvitationPage from '../staff/pages/InvitationPage.tsx';
import LegalPage from './LegalPage.tsx';
import ManagePage from './ManagePage.tsx';
import NotFoundPage from './NotFoundPage.tsx';
import PlanPage from './PlanPage.tsx';
import PricingPage from './PricingPage.tsx';
import ReceiptPage from './ReceiptPage.tsx';
import ServiceDetailPage from './ServiceDetailPage.tsx';
import ServicesPage from './ServicesPage.tsx';
import SitemapPage from './SitemapPage.tsx';
import TestimonialsPage from './TestimonialsPage.tsx';

// The browser loads the booking wizard's steps 2 and 3 on demand; the server has them at once.
provideLaterSteps(laterStepsModule);

export const PAGE_COMPONENTS: Record<PageModule, ComponentType<PageProps<never>>> = {
  AboutPage,
  BookingPage,
  ContactPage,
  DashboardPage,
  FindBookingPage,
  HomePage,
  InsightsPage,
  InvitationPage,
  LegalPage,
  ManagePage,
  NotFoundPage,
  PlanPage,
  PricingPage,
  ReceiptPage,
  ServiceDetailPage,
  ServicesPage,
  SitemapPage,
  TestimonialsPage,
};
