import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '@/i18n/i18n';
import { ViewsChart } from './views-chart';

const days = [
  { date: '2026-11-25', views: 3 },
  { date: '2026-11-26', views: 0 },
  { date: '2026-11-27', views: 1200 },
];

describe('ViewsChart', () => {
  afterEach(async () => {
    await changeLanguage('en');
  });

  it("writes its days and counts as the interface's language does", async () => {
    const { unmount } = render(<ViewsChart days={days} />);
    expect(screen.getByRole('img').getAttribute('aria-label')).toBe('Views per day from Nov 25, 2026 to Nov 27, 2026');
    expect(document.querySelectorAll('rect title')[2]!.textContent).toBe('Nov 27, 2026: 1,200 views');
    unmount();

    await changeLanguage('fr');
    render(<ViewsChart days={days} />);
    const label = screen.getByRole('img').getAttribute('aria-label')!;
    expect(label).toContain(new Intl.DateTimeFormat('fr', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date('2026-11-25T00:00:00Z')));
    expect(label).toMatch(/27 nov\. 2026$/);
  });
});
