// Address lists in the settings (MLLP_ALLOWED_SOURCES, MLLP_RESERVED_SOURCES,
// MLLP_SOURCE_FACILITIES): addresses and networks, read once into a BlockList.
import net, { BlockList } from 'node:net';

/** MLLP_ALLOWED_SOURCES / MLLP_RESERVED_SOURCES: addresses (10.1.2.3, ::1) and networks (10.0.0.0/8) separated by commas. */
export function sourceList(sources: string[], setting = 'MLLP_ALLOWED_SOURCES'): BlockList | undefined {
  if (sources.length === 0) return undefined;
  const list = new BlockList();
  for (const source of sources) {
    const [address, prefix] = source.split('/');
    const type = net.isIPv6(address!) ? 'ipv6' : 'ipv4';
    if (!net.isIP(address!)) throw new Error(`${setting}: ${JSON.stringify(source)} is not an IP address or network`);
    if (prefix === undefined) list.addAddress(address!, type);
    else {
      const bits = Number(prefix);
      if (!Number.isInteger(bits) || bits < 0 || bits > (type === 'ipv4' ? 32 : 128)) throw new Error(`${setting}: ${JSON.stringify(source)} has a bad prefix length`);
      list.addSubnet(address!, bits, type);
    }
  }
  return list;
}

/** Whether an address (never a name) is in the list. */
export function listed(list: BlockList, source: string): boolean {
  return net.isIP(source) !== 0 && list.check(source, net.isIPv6(source) ? 'ipv6' : 'ipv4');
}
