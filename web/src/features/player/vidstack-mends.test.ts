import { afterEach, describe, expect, it } from 'vitest';
import { mendVidstackAccessibility } from './vidstack-mends';

describe('mendVidstackAccessibility', () => {
  afterEach(() => document.body.replaceChildren());

  it('gives preview frames an empty alt and scrolling menus a tab stop, also when they appear later', async () => {
    const player = document.createElement('div');
    player.innerHTML = '<div class="vds-slider-thumbnail"><img src="/storyboard.jpg"></div>';
    document.body.append(player);
    const undo = mendVidstackAccessibility(player)!;
    expect(player.querySelector('img')!.getAttribute('alt')).toBe('');

    const menu = document.createElement('div');
    menu.className = 'vds-menu-items';
    menu.setAttribute('role', 'menu');
    document.body.append(menu);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(menu.tabIndex).toBe(0);
    undo();
  });

  it('leaves an alt already given alone, and makes a menu taken out of the tab order a tab stop', () => {
    document.body.innerHTML = '<div class="vds-thumbnail"><img alt="Frame"></div><div class="vds-menu-items" role="menu" tabindex="-1"></div>';
    mendVidstackAccessibility(document.body)?.();
    expect(document.querySelector('img')!.alt).toBe('Frame');
    expect(document.querySelector<HTMLElement>('.vds-menu-items')!.tabIndex).toBe(0);
  });
});
