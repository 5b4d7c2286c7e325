/** About (spec section 2): our journey since 2020, three core values, the team, and a call to action. */
import { ABOUT, ABOUT_STATS } from '#domain/content.ts';
import { CallToAction } from '../components/CallToAction.tsx';
import { FeatureCard, Section, StatsBand } from '../components/blocks.tsx';
import type { IconName } from '../components/Icon.tsx';
import { PageHero } from '../components/PageHero.tsx';
import './AboutPage.css';

const VALUE_ICONS: Record<string, IconName> = { Quality: 'star', Integrity: 'shield', Innovation: 'sparkle' };

export default function AboutPage() {
  return (
    <>
      <PageHero eyebrow="About us" title="Auckland's mobile car care team">
        <p>Professional valeting and detailing at your door or at our Mount Wellington service centre.</p>
      </PageHero>

      <Section id="journey" title="Our Journey" narrow>
        <div className="prose">
          {ABOUT.story.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
        </div>
      </Section>

      <StatsBand stats={ABOUT_STATS} />

      <Section id="values" title="Our Core Values" tint>
        <ul className="card-grid three">
          {ABOUT.values.map((value) => (
            <FeatureCard key={value.title} icon={VALUE_ICONS[value.title] ?? 'star'} title={value.title}>
              <p>{value.description}</p>
            </FeatureCard>
          ))}
        </ul>
      </Section>

      <Section id="team" title="Meet the Team">
        <ul className="card-grid three">
          {ABOUT.team.map((member) => (
            <li key={member.name} className="card team-member">
              <span className="avatar" aria-hidden="true">
                {member.name
                  .split(' ')
                  .map((part) => part[0])
                  .join('')}
              </span>
              <h3>{member.name}</h3>
              <p className="role">{member.role}</p>
              <p>{member.bio}</p>
            </li>
          ))}
        </ul>
      </Section>

      <CallToAction title="Ready for a car you are proud of?" text="Book online in a minute. We come to you, or you drop off at our service centre." />
    </>
  );
}
