// The Svc client on its own. Against the local emulator:
//   npx svc-emulator --port 18777      (prints the demo credentials)
//   SVC_ENDPOINT_URL=http://127.0.0.1:18777/xmlrpc/v3.1 SVC_USERNAME=demo SVC_API_KEY=<key> \
//     npx tsx examples/client/quickstart.ts
import { Client } from 'pulumi-svc/client';
import { VirtualGuestManager } from 'pulumi-svc/managers';

async function main(): Promise<void> {
  // No arguments: SVC_USERNAME, SVC_API_KEY and SVC_ENDPOINT_URL, else the settings file ~/.svc.
  const client = new Client();

  const account = await client.Account.getObject<{ companyName: string }>({ mask: 'companyName' });
  console.log(`account: ${account.companyName}`);

  // Page after page, 50 at a time; only the current page is held in memory.
  for await (const guest of client.iterCall<{ id: number; hostname: string }>(
    'Account',
    'getVirtualGuests',
    {
      chunk: 50,
      mask: 'id,hostname',
    },
  )) {
    console.log(`guest ${guest.id}: ${guest.hostname}`);
  }

  const dal10 = await new VirtualGuestManager(client).listInstances({
    datacenter: 'dal10',
    mask: 'id,hostname',
  });
  console.log(`${dal10.length} guest(s) in dal10`);
}

main().catch((err: Error) => {
  console.error(err.message);
  process.exit(1);
});
