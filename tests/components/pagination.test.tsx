import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Pagination } from '../../src/components/ui/pagination';

describe('Pagination', () => {
  it("says 'Page x of y', and 'of about y' when the server estimated the count", () => {
    const { rerender } = render(<Pagination page={2} pageCount={3} onPageChange={vi.fn()} />);
    expect(screen.getByRole('navigation', { name: 'Pagination' }).textContent).toContain('Page 2 of 3');
    rerender(<Pagination page={1} pageCount={2450} approximate onPageChange={vi.fn()} />);
    expect(screen.getByRole('navigation', { name: 'Pagination' }).textContent).toContain('Page 1 of about 2,450');
  });

  it('is not shown for a single page', () => {
    render(<Pagination page={1} pageCount={1} onPageChange={vi.fn()} />);
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).toBeNull();
  });
});
