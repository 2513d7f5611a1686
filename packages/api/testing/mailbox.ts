// Reading the tests' mail catcher (maildev's REST API): one module for the integration harness and the
// end-to-end suite.

export interface CapturedMail {
  id: string;
  subject: string;
  to: { address: string }[];
  text: string;
  html: string;
  date: string;
}

/**
 * The catcher's messages to `address`, oldest first, filtered by the catcher (`?to.address=`): a run's
 * test files share it, and reading all of it at each check (megabytes, gzipped and parsed again) made a
 * file of mail checks four times slower late in a run than alone. The catcher matches exactly, so the
 * address is asked as written and in lower case (the app sends to the lower-cased address it stores).
 */
export async function mailTo(baseUrl: string, address: string): Promise<CapturedMail[]> {
  const spellings = [...new Set([address, address.toLowerCase()])];
  const lists = await Promise.all(
    spellings.map(async (spelling) => {
      const response = await fetch(`${baseUrl}/email?${new URLSearchParams({ "to.address": spelling })}`);
      if (!response.ok) throw new Error(`The mail catcher answered ${response.status} for mail to ${spelling}`);
      return (await response.json()) as CapturedMail[];
    }),
  );
  return lists.length === 1 ? lists[0]! : lists.flat().sort((a, b) => Date.parse(a.date) - Date.parse(b.date));
}
