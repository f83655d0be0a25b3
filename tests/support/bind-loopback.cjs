// Preloaded with `node --require` into third-party test servers that listen on every interface
// (server-everything): every TCP listen() is forced onto 127.0.0.1. Unix sockets and handles pass.
"use strict";
const net = require("node:net");

const HOST = "127.0.0.1";
const originalListen = net.Server.prototype.listen;

net.Server.prototype.listen = function listen(...args) {
  const first = args[0];
  const callback = args.find((arg) => typeof arg === "function");
  if (first === undefined || typeof first === "function") {
    return originalListen.call(this, { port: 0, host: HOST }, callback);
  }
  if (typeof first === "number" || (typeof first === "string" && /^\d+$/.test(first))) {
    const backlog = args.slice(1).find((arg) => typeof arg === "number");
    return originalListen.call(this, { port: Number(first), host: HOST, backlog }, callback);
  }
  if (first !== null && typeof first === "object" && first.path === undefined && first.fd === undefined && !("_handle" in first)) {
    return originalListen.call(this, { ...first, host: HOST }, callback);
  }
  return originalListen.apply(this, args);
};
