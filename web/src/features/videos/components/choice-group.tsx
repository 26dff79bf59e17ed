import { useId } from 'react';
import { cn } from '@/lib/cn';

/** A small set of radio buttons drawn as one segmented control; arrow keys move between them. */
export function ChoiceGroup<T extends string>({
  legend,
  name,
  value,
  options,
  disabled,
  onChange,
}: {
  legend: string;
  name: string;
  value: T;
  options: { value: T; label: string; hint?: string }[];
  disabled?: boolean;
  onChange: (value: T) => void;
}) {
  const id = useId();
  return (
    <fieldset className="flex min-w-0 flex-col gap-1" disabled={disabled}>
      <legend className="mb-1 text-sm font-medium text-neutral-700 dark:text-neutral-300">{legend}</legend>
      <div className="flex rounded-lg border border-neutral-300 bg-neutral-50 p-0.5 dark:border-neutral-700 dark:bg-neutral-900">
        {options.map((o) => (
          <label
            key={o.value}
            className={cn(
              'relative flex-1 cursor-pointer whitespace-nowrap rounded-md px-1.5 py-1.5 text-center text-sm font-medium transition-colors focus-within:ring-2 focus-within:ring-rose-500/40',
              value === o.value
                ? 'bg-white text-neutral-900 shadow-sm dark:bg-neutral-700 dark:text-white'
                : 'text-neutral-600 hover:text-neutral-900 dark:text-neutral-400 dark:hover:text-neutral-100',
            )}
          >
            <input
              type="radio"
              name={`${name}-${id}`}
              value={o.value}
              checked={value === o.value}
              onChange={() => onChange(o.value)}
              // Transparent over the whole segment: the radio itself takes the click and the focus.
              className="absolute inset-0 h-full w-full cursor-pointer appearance-none rounded-md opacity-0"
            />
            {o.label}
          </label>
        ))}
      </div>
      {options.find((o) => o.value === value)?.hint && (
        <p className="text-xs text-neutral-500 dark:text-neutral-400">{options.find((o) => o.value === value)!.hint}</p>
      )}
    </fieldset>
  );
}
