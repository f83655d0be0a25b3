import { PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

type Message = Parameters<PostMessageTransport["send"]>[0];

/**
 * The bridge's postMessage transport, bound to the sandbox origin: the base class posts with "*",
 * so a proxy frame navigated elsewhere would still receive the app's data. Incoming messages are
 * accepted only from the proxy window itself (the base class checks `event.source`), so an app
 * posting straight to the console's window is ignored.
 */
export class SandboxTransport extends PostMessageTransport {
  constructor(
    private readonly proxy: Window,
    private readonly sandboxOrigin: string,
  ) {
    super(proxy, proxy);
  }

  override async send(message: Message): Promise<void> {
    this.proxy.postMessage(message, this.sandboxOrigin);
  }
}
