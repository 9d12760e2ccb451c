import { fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { DEFAULT_BUILDER, DEFAULT_CRON, builderToCron, cronToBuilder } from './cron-builder';
import { CRON_PRESETS, presetFor } from './cron-presets';
import { SchedulePicker } from './schedule-picker';

function Harness({ initial = DEFAULT_CRON }: { initial?: string }) {
  const [cron, setCron] = useState(initial);
  return <SchedulePicker value={cron} onChange={setCron} onBlur={() => undefined} />;
}

const cronText = () => screen.getByTestId('cron-text').textContent;
const openTab = (name: string) => fireEvent.click(screen.getByRole('tab', { name }));

describe('cron builder model', () => {
  it('round-trips every builder frequency through the cron text', () => {
    const states = [
      { ...DEFAULT_BUILDER, frequency: 'minutes' as const, everyMinutes: 5 },
      { ...DEFAULT_BUILDER, frequency: 'hourly' as const, everyHours: 4, minute: 30 },
      { ...DEFAULT_BUILDER, frequency: 'daily' as const, hour: 9 },
      { ...DEFAULT_BUILDER, frequency: 'weekly' as const, hour: 6, weekday: 1 },
      { ...DEFAULT_BUILDER, frequency: 'monthly' as const, hour: 23, dayOfMonth: 31 },
    ];
    expect(states.map(builderToCron)).toEqual(['*/5 * * * *', '30 */4 * * *', '0 9 * * *', '0 6 * * 1', '0 23 31 * *']);
    for (const state of states) expect(cronToBuilder(builderToCron(state))).toEqual(state);
  });

  it('leaves expressions beyond the builder to the Expression tab', () => {
    expect(cronToBuilder('*/45 * * * *')).toBeNull();
    expect(cronToBuilder('0 9 * * 1-5')).toBeNull();
    expect(cronToBuilder('0 0 1 1 *')).toBeNull();
  });

  it('knows every preset of the spec, with every 15 minutes as the default', () => {
    expect(CRON_PRESETS.map((p) => p.cron)).toEqual(['*/5 * * * *', '*/15 * * * *', '*/30 * * * *', '0 * * * *', '0 0 * * *', '0 0 * * 0', '0 0 1 * *']);
    expect(DEFAULT_CRON).toBe('*/15 * * * *');
    expect(presetFor('0  0 * *   0')?.id).toBe('weekly');
  });
});

describe('schedule picker', () => {
  it('starts at every 15 minutes with its description and next 5 runs', () => {
    render(<Harness />);
    expect(cronText()).toBe('*/15 * * * *');
    expect(screen.getByLabelText('Every (minutes)')).toHaveValue('15');
    expect(screen.getByTestId('cron-description').textContent).toMatch(/15 minutes/);
    expect(within(screen.getByTestId('next-runs')).getAllByRole('listitem')).toHaveLength(5);
  });

  it('keeps builder, expression and preset in sync', () => {
    render(<Harness />);
    fireEvent.change(screen.getByLabelText('Frequency'), { target: { value: 'weekly' } });
    fireEvent.change(screen.getByLabelText('Day of week'), { target: { value: '3' } });
    fireEvent.change(screen.getByLabelText('At hour (UTC)'), { target: { value: '8' } });
    expect(cronText()).toBe('0 8 * * 3');

    openTab('Expression');
    expect(screen.getByLabelText('Cron expression')).toHaveValue('0 8 * * 3');
    fireEvent.change(screen.getByLabelText('Cron expression'), { target: { value: '0 0 1 * *' } });

    openTab('Preset');
    expect(screen.getByLabelText('Schedule preset')).toHaveValue('monthly');
    fireEvent.change(screen.getByLabelText('Schedule preset'), { target: { value: 'hourly' } });
    expect(cronText()).toBe('0 * * * *');

    openTab('Builder');
    expect(screen.getByLabelText('Frequency')).toHaveValue('hourly');
    expect(screen.getByLabelText('Every (hours)')).toHaveValue('1');
    expect(screen.getByLabelText('At minute')).toHaveValue('0');
  });

  it('shows a custom expression as custom in the builder and the presets, and no preview while invalid', () => {
    render(<Harness initial="0 9 * * 1-5" />);
    expect(screen.getByLabelText('Frequency')).toHaveValue('');
    openTab('Preset');
    expect(screen.getByLabelText('Schedule preset')).toHaveValue('');
    openTab('Expression');
    fireEvent.change(screen.getByLabelText('Cron expression'), { target: { value: '61 * * * *' } });
    expect(screen.queryByTestId('next-runs')).not.toBeInTheDocument();
  });

  it('moves between tabs with the arrow keys', () => {
    render(<Harness />);
    fireEvent.keyDown(screen.getByRole('tab', { name: 'Builder' }), { key: 'ArrowRight' });
    expect(screen.getByRole('tab', { name: 'Expression' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'Expression' })).toHaveFocus();
  });
});
