/** Today in Auckland (YYYY-MM-DD), as the browser can tell it: the Takings' default range. */
export function aucklandToday(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Auckland', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
}
