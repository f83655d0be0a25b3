import { benchUi } from "./ui";
await benchUi();
