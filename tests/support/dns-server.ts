import dgram from "node:dgram";

export interface DnsServer {
  /** `127.0.0.1:<port>`, for SWITCHBOARD_DNS_SERVERS. */
  address: string;
  /** TXT records by lower-case name; what is not here answers NXDOMAIN. */
  txt: Map<string, string[]>;
  close(): Promise<void>;
}

/** A DNS server on loopback (UDP) answering TXT questions from `txt`: the stand-in for a domain's zone. */
export async function startDnsServer(): Promise<DnsServer> {
  const socket = dgram.createSocket("udp4");
  const txt = new Map<string, string[]>();
  socket.on("message", (msg, rinfo) => {
    // Header (12 bytes), then one question: labels, type, class.
    let at = 12;
    const labels: string[] = [];
    while (msg[at] !== 0) {
      labels.push(msg.subarray(at + 1, at + 1 + msg[at]).toString("ascii"));
      at += msg[at] + 1;
    }
    const questionEnd = at + 5;
    const type = msg.readUInt16BE(at + 1);
    const records = type === 16 ? txt.get(labels.join(".").toLowerCase()) ?? [] : [];
    const exists = txt.has(labels.join(".").toLowerCase());
    const answers = records.map((value) => {
      const data = Buffer.from(value, "utf8");
      const rr = Buffer.alloc(12);
      rr.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
      rr.writeUInt16BE(16, 2);
      rr.writeUInt16BE(1, 4);
      rr.writeUInt32BE(60, 6);
      rr.writeUInt16BE(data.length + 1, 10);
      return Buffer.concat([rr, Buffer.from([data.length]), data]);
    });
    const header = Buffer.alloc(12);
    msg.copy(header, 0, 0, 2); // id
    header.writeUInt16BE(0x8180 | (exists ? 0 : 3), 2); // response, recursion desired+available, NOERROR or NXDOMAIN
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    socket.send(Buffer.concat([header, msg.subarray(12, questionEnd), ...answers]), rinfo.port, rinfo.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  return {
    address: `127.0.0.1:${socket.address().port}`,
    txt,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
