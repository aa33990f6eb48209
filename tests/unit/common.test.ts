import { describe, expect, it } from 'vitest';
import { activityText, relativeTime } from '../../common/activity';
import { parse as parseCsv } from 'csv-parse/sync';
import { csvCell, csvRow, unguardCsvText } from '../../common/csv';
import { can, normalizeRole } from '../../common/permissions';
import { passwordMeetsRules } from '../../common/password';
import { isActivePath } from '../../src/app/nav';
import { initials } from '../../src/components/ui/avatar';

describe('permissions (docs/PRODUCT.md section 6)', () => {
  it('normalises role text and defaults a missing role to ADMIN', () => {
    expect(normalizeRole(' system admin ')).toBe('SYSTEM_ADMIN');
    expect(normalizeRole('super admin')).toBe('ADMIN');
    expect(normalizeRole(undefined)).toBe('ADMIN');
    expect(normalizeRole('')).toBe('ADMIN');
  });
  it('accepts a dotted group.flag or a flag name, false without a role', () => {
    expect(can('SYSTEM_ADMIN', 'accounts.manage')).toBe(true);
    expect(can('ADMIN', 'accounts.manage')).toBe(false);
    expect(can('ADMIN', 'canManageMaintenance')).toBe(false);
    expect(can('SYSTEM_ADMIN', 'canManageMaintenance')).toBe(true);
    expect(can('ADMIN', 'content.delete')).toBe(true);
    expect(can('ADMIN', 'history.viewAll')).toBe(false);
    expect(can(null, 'dashboard.view')).toBe(false);
  });
});

describe('activity text (docs/PRODUCT.md section 9)', () => {
  it.each([
    ['CREATE', 'rice_local_pests', 'Rice bug', 'New Pest added: Rice bug'],
    ['insert', 'accounts', 'Ana', 'New Account added: Ana'],
    ['EDITED', 'rice_seed_varieties', 'Rc 222', 'Rice variety updated: Rc 222'],
    ['REMOVED', 'rice_local_diseases', 'Blast', 'Disease deleted: Blast'],
    ['RESTRICT', 'accounts', 'Ana', 'Account activity: Ana'],
    ['CREATE', 'elsewhere', '', 'New item added: Unknown'],
    ['SUBMIT', 'rice_local_diseases', 'Blast', 'Disease change sent for review: Blast'],
    ['PUBLISH', 'rice_seed_varieties', 'Rc 222', 'Rice variety change published: Rc 222'],
  ])('%s on %s', (action, collection, name, expected) => {
    expect(activityText(action, collection, name)).toBe(expected);
  });
  it('shows relative time as s, m, h or d and Invalid for bad input', () => {
    const now = Date.parse('2026-01-02T00:00:00Z');
    expect(relativeTime('2026-01-01T23:59:30Z', now)).toBe('30s');
    expect(relativeTime('2026-01-01T23:15:00Z', now)).toBe('45m');
    expect(relativeTime('2026-01-01T21:00:00Z', now)).toBe('3h');
    expect(relativeTime('2025-12-30T00:00:00Z', now)).toBe('3d');
    expect(relativeTime('not a date', now)).toBe('Invalid');
  });
});

describe('shell helpers', () => {
  it('finds the active entry with trailing slashes ignored', () => {
    expect(isActivePath('/dashboard', '/dashboard/')).toBe(true);
    expect(isActivePath('/dashboard', '/dashboard/rice_pests')).toBe(false);
    expect(isActivePath('/dashboard/rice_pests', '/dashboard/rice_pests///')).toBe(true);
  });
  it('makes initials from the first and last word', () => {
    expect(initials('Juan Dela Cruz')).toBe('JC');
    expect(initials('maria')).toBe('M');
    expect(initials('')).toBe('?');
  });
  it('checks the password checklist', () => {
    expect(passwordMeetsRules('Secret#123')).toBe(true);
    expect(passwordMeetsRules('secret#123')).toBe(false);
    expect(passwordMeetsRules('Secret1234')).toBe(false);
    expect(passwordMeetsRules('Se#1')).toBe(false);
  });
});

describe('the CSV cell writer (OWASP CSV injection rule)', () => {
  it('keeps text that a spreadsheet would run as a formula as text', () => {
    for (const lead of ['=', '+', '-', '@', '\t', '\r']) expect(csvCell(`${lead}1+2`).replace(/^"/, '')).toMatch(/^'/);
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\rReturn')).toBe(`"'\rReturn"`);
  });
  it('quotes commas, quotes and line breaks so a separator inside a value never starts a cell', () => {
    expect(csvCell('Capas, Tarlac')).toBe('"Capas, Tarlac"');
    expect(csvCell('a,=1+2')).toBe(`"a,'=1+2"`);
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
  });
  it('writes numbers as numbers, null as empty, and plain text as it is', () => {
    expect(csvRow(['NSIC Rc 222', -5, 0, null, undefined, 'Ñ'])).toBe('NSIC Rc 222,-5,0,,,Ñ');
  });
  it('quotes a semicolon or tab and guards every place a reader with another separator starts a field', () => {
    expect(csvCell('Leaf folder;=SUM(1+2)*1000')).toBe(`"Leaf folder;'=SUM(1+2)*1000"`);
    expect(csvCell('Dry; Wet')).toBe('"Dry; Wet"');
    expect(csvCell('a\t@x')).toBe(`"a\t'@x"`);
    expect(csvCell('a\n+1')).toBe(`"a\n'+1"`);
    expect(csvCell('a; "-1"')).toBe(`"a;' ""-1"""`);
    expect(csvCell(' =A1')).toBe(`' =A1`);
    expect(csvCell('Capas, Tarlac; Paniqui')).toBe('"Capas, Tarlac; Paniqui"');
  });
  it('leaves no field that begins a formula for a reader splitting at comma, semicolon or tab', () => {
    const cells = [
      'Leaf folder;=SUM(1+2)*1000',
      'a;"=1"',
      'x, -2',
      'tab\t@x',
      'line\n+1',
      'ok',
      '=A1',
      ' =A1',
      'a; "+1"',
      'a;;=1',
      'cr\r-1',
    ];
    const text = [csvRow(cells), csvRow([...cells].reverse()), csvRow(['x', ...cells])].join('\r\n');
    for (const delimiter of [',', ';', '\t']) {
      const fields: string[] = parseCsv(text, { delimiter, relax_quotes: true, relax_column_count: true }).flat();
      expect(fields.length).toBeGreaterThan(3);
      for (const field of fields) expect(field.replace(/^[\s"]+/, ''), `${JSON.stringify(delimiter)}: ${field}`).not.toMatch(/^[=+\-@]/);
    }
    // Read with this writer's own separator, every cell comes back whole.
    const rows: string[][] = parseCsv(text, { delimiter: ',', relax_column_count: true });
    expect(rows.map((r) => r.map(unguardCsvText))).toEqual([cells, [...cells].reverse(), ['x', ...cells]]);
  });
  it('reads a guarded text back as it was', () => {
    for (const text of ['Leaf folder;=SUM(1+2)*1000', 'a; "+1"', '=A1', 'x, -2', "O'Brien; 'quoted'", 'a;;=1']) {
      expect(unguardCsvText(parseCsv(csvCell(text), { delimiter: ',' })[0][0])).toBe(text);
    }
  });
});

describe("history entries in people's words", () => {
  it('names fields by their forms’ labels, else in words, and shows moments in Manila time', async () => {
    const { fieldLabel, formatValue } = await import('../../common/history-diff.js');
    expect(fieldLabel('rice_seed_varieties', 'averageYield')).toBe('Average yield');
    expect(fieldLabel('rice_local_diseases', 'treatments')).toBe('Treatments');
    expect(fieldLabel('accounts', 'isRestricted')).toBe('Restricted');
    expect(fieldLabel('accounts', 'deletedAt')).toBe('Deleted on');
    expect(fieldLabel('maintenance', 'yearReleases')).toBe('Year releases');
    expect(fieldLabel(null, 'some_field')).toBe('Some field');
    expect(formatValue('2026-12-01T21:43:29.349Z')).toBe('Dec 2, 2026, 5:43:29 AM (PHT)');
    expect(formatValue('2026-12-01')).toBe('2026-12-01');
  });
});
