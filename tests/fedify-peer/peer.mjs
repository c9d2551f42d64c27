// A real ActivityPub server on Fedify (@fedify/fedify, MIT), playing a remote server such as
// Mastodon or Ghost for tests/api/fedify.rs. It has one actor, bob, and a small control API that
// the Rust test calls step by step, checking Quire's side between the steps.
//
//   node peer.mjs QUIRE_HOST          e.g. `node peer.mjs localhost:41234`
//
// It listens on 127.0.0.1 on a free port and prints ONE line on stdout, then logs to stderr only:
//   {"origin":"http://127.0.0.1:PORT","actor":".../users/bob","inbox":".../users/bob/inbox","sharedInbox":".../inbox"}
//
// Control API (JSON in, JSON out; an error is {"error": "..."} with status 4xx/5xx):
//   POST /control/lookup        {"resource": "acct:alice@localhost:PORT"}  -> {"actor": <actor summary>}
//   POST /control/follow        {"target": actorId}                        -> {"id": followId}
//   POST /control/undo-follow   {"target": actorId, "follow": followId}    -> {"id": undoId}
//   POST /control/reply         {"target": actorId, "inReplyTo": objectId, "content": html} -> {"id": noteId, "create": createId}
//   POST /control/delete-reply  {"target": actorId, "note": noteId}        -> {"id": deleteId}
//   POST /control/like          {"target": actorId, "object": objectId}    -> {"id": likeId}
//   POST /control/hostile       {"inbox": url, "object": objectId}         -> {"unsigned": 401, "signed": 202, ...}
//   POST /control/collections   {"target": actorId}                        -> {"outbox": {...}, "followers": {...}}
//   POST /control/nodeinfo      {"origin": "http://localhost:PORT"}        -> {"nodeinfo": <parsed by Fedify>}
//   POST /control/wait          {"type": "Create", "objectId"?: id, "timeoutMs"?: 10000} -> <received activity>
//   GET  /control/received                                                 -> {"received": [<received activity>...]}
// Every other path is Fedify's (the actor, its key, its inboxes). An activity is "received" only
// when Fedify called its inbox listener, which it does only after verifying the HTTP signature.
//
// Env: FIRST_KNOCK ("rfc9421", Fedify's default, or "draft-cavage-http-signatures-12"),
//      PEER_LOG_LEVEL (Fedify's log level on stderr, default "error"; signature checks log at debug).
import { AsyncLocalStorage } from "node:async_hooks";
import http from "node:http";
import dns from "node:dns";
import { Agent, setGlobalDispatcher } from "undici";
import { Temporal } from "@js-temporal/polyfill";
import { configure, defaultTextFormatter } from "@logtape/logtape";
import { createFederation, MemoryKvStore, generateCryptoKeyPair, signRequest, parseNodeInfo } from "@fedify/fedify";
import {
  Accept, Article, Create, Delete, Endpoints, Follow, Hashtag, Image, Like, Note, Person, PUBLIC_COLLECTION,
  Reject, Tombstone, Undo, Update,
} from "@fedify/vocab";

const quireHost = process.argv[2];
if (!quireHost || !/^[a-z0-9.-]+(:\d+)?$/.test(quireHost)) {
  process.stderr.write("usage: node peer.mjs QUIRE_HOST (e.g. localhost:41234)\n");
  process.exit(2);
}

await configure({
  contextLocalStorage: new AsyncLocalStorage(),
  sinks: { stderr: (record) => process.stderr.write(defaultTextFormatter(record)) },
  loggers: [
    // Fedify's warnings are mostly about proofs we do not make (Mastodon makes none either); why a
    // signature was refused is logged at debug level under fedify·sig, and is what a failing test needs.
    { category: "fedify", sinks: ["stderr"], lowestLevel: process.env.PEER_LOG_LEVEL || "error" },
    { category: ["fedify", "sig"], sinks: ["stderr"], parentSinks: "override", lowestLevel: "debug" },
    { category: ["fedify", "federation", "inbox"], sinks: ["stderr"], parentSinks: "override", lowestLevel: "info" },
    { category: ["logtape", "meta"], sinks: ["stderr"], lowestLevel: "warning" },
  ],
});

// TEST-ONLY SHIM 1: names under `localhost` resolve to 127.0.0.1. Quire's tests address blogs as
// `alice.localhost:PORT`, and glibc here does not resolve `*.localhost` (Node says ENOTFOUND).
// A real deployment has real DNS names; nothing of this is needed, or in Quire.
setGlobalDispatcher(new Agent({
  connect: {
    lookup(hostname, opts, cb) {
      if (hostname === "localhost" || hostname.endsWith(".localhost")) {
        return opts && opts.all ? cb(null, [{ address: "127.0.0.1", family: 4 }]) : cb(null, "127.0.0.1", 4);
      }
      return dns.lookup(hostname, opts, cb);
    },
  },
}));

// TEST-ONLY SHIM 2: Fedify always looks an `acct:` handle up over https (no option changes it),
// and the Quire under test serves plain http on loopback. Only https URLs of the Quire test host
// and its subdomains are rewritten to http; everything after WebFinger follows the http ids that
// Quire serves itself. In production both sides speak https and this is not needed.
const realFetch = globalThis.fetch;
function isQuireTestHost(url) {
  const { protocol, host } = new URL(url);
  return protocol === "https:" && (host === quireHost || host.endsWith("." + quireHost));
}
globalThis.fetch = (input, init) => {
  const url = input instanceof Request ? input.url : String(input);
  if (isQuireTestHost(url)) {
    const fixed = "http://" + url.slice("https://".length);
    return realFetch(input instanceof Request ? new Request(fixed, input) : fixed, init);
  }
  return realFetch(input, init);
};

// What Fedify's inbox listeners received (each one signature-verified), and who waits for what.
const received = [];
const waiters = new Set();
function matches(entry, want) {
  return entry.type === want.type && (want.objectId == null || entry.objectId === want.objectId) &&
    (want.id == null || entry.id === want.id);
}
async function record(activity) {
  let entry;
  try {
    entry = await summarizeActivity(activity);
  } catch (e) {
    // Still recorded (it was verified), so that a test sees it and the error, rather than a 500
    // that the sender would retry.
    entry = { type: typeName(activity), id: activity.id?.href ?? null, objectId: activity.objectId?.href ?? null, error: String(e?.stack ?? e) };
  }
  received.push(entry);
  for (const w of waiters) {
    if (matches(entry, w.want)) {
      waiters.delete(w);
      w.resolve(entry);
    }
  }
}

const TYPES = [
  ["Accept", Accept], ["Create", Create], ["Update", Update], ["Delete", Delete], ["Reject", Reject], ["Undo", Undo],
  ["Follow", Follow], ["Like", Like], ["Article", Article], ["Note", Note], ["Tombstone", Tombstone],
  ["Person", Person], ["Hashtag", Hashtag], ["Image", Image],
];
function typeName(object) {
  return object == null ? null : (TYPES.find(([, cls]) => object instanceof cls)?.[0] ?? "Object");
}
const href = (value) => (value instanceof URL ? value.href : value?.href instanceof URL ? value.href.href : value?.href ?? null);

async function summarizeObject(object) {
  if (object == null) return null;
  const summary = {
    type: typeName(object), id: object.id?.href ?? null, name: object.name == null ? null : String(object.name),
    url: href(object.url), attributedTo: object.attributionId?.href ?? null,
    content: object.content == null ? null : String(object.content), mediaType: object.mediaType ?? null,
    inReplyTo: object.replyTargetId?.href ?? null, tags: [], attachments: [],
  };
  if (typeof object.getTags === "function") {
    for await (const tag of object.getTags()) summary.tags.push({ type: typeName(tag), name: tag.name == null ? null : String(tag.name), href: href(tag.href) });
  }
  if (typeof object.getAttachments === "function") {
    for await (const a of object.getAttachments()) {
      summary.attachments.push({ type: typeName(a), name: a.name == null ? null : String(a.name), url: href(a.url), mediaType: a.mediaType ?? null });
    }
  }
  return summary;
}

// The object of a Create, Update or Delete (embedded by the sender); for others, its id only: an
// Accept embeds our own Follow, which Fedify would re-fetch from us (it is another origin's).
async function summarizeActivity(activity) {
  let object = null;
  let objectError = null;
  if (activity instanceof Create || activity instanceof Update || activity instanceof Delete) {
    try {
      object = await summarizeObject(await activity.getObject());
    } catch (e) {
      objectError = String(e);
    }
  }
  return {
    type: typeName(activity), id: activity.id?.href ?? null, actor: activity.actorId?.href ?? null,
    objectId: activity.objectId?.href ?? null, object, objectError, json: await activity.toJsonLd(),
  };
}

const federation = createFederation({
  kv: new MemoryKvStore(),
  // TEST-ONLY: lets Fedify fetch actors and keys on 127.0.0.1 (Fedify's docs: "mostly useful for
  // testing purposes; do not use in production").
  allowPrivateAddress: true,
  firstKnock: process.env.FIRST_KNOCK || undefined,
});
const keyPairs = [await generateCryptoKeyPair("RSASSA-PKCS1-v1_5")];
federation
  .setActorDispatcher("/users/{identifier}", async (ctx, identifier) => {
    if (identifier !== "bob") return null;
    const keys = await ctx.getActorKeyPairs(identifier);
    return new Person({
      id: ctx.getActorUri(identifier),
      preferredUsername: identifier,
      name: "Bob (Fedify peer)",
      url: new URL("/@bob", ctx.origin),
      inbox: ctx.getInboxUri(identifier),
      endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
      publicKey: keys[0].cryptographicKey,
    });
  })
  .setKeyPairsDispatcher(async () => keyPairs);
federation
  .setInboxListeners("/users/{identifier}/inbox", "/inbox")
  .on(Accept, async (_ctx, a) => record(a))
  .on(Reject, async (_ctx, a) => record(a))
  .on(Create, async (_ctx, a) => record(a))
  .on(Update, async (_ctx, a) => record(a))
  .on(Delete, async (_ctx, a) => record(a))
  .on(Undo, async (_ctx, a) => record(a));

let ORIGIN = "";
let ctx = null;
let me = null;
let counter = 0;
const nextId = (kind) => new URL(`${ORIGIN}/${kind}/${++counter}`);
const actors = new Map(); // actor id -> Person, from lookups
const follows = new Map(); // follow id -> Follow
const notes = new Map(); // note id -> Note

class ControlError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}
function need(body, ...names) {
  for (const name of names) {
    if (typeof body[name] !== "string" || body[name] === "") throw new ControlError(400, `"${name}" (a string) is required`);
  }
}
async function actorOf(id) {
  if (actors.has(id)) return actors.get(id);
  const actor = await ctx.lookupObject(id);
  if (!(actor instanceof Person)) throw new ControlError(502, `${id} is not a Person (got ${typeName(actor)})`);
  actors.set(id, actor);
  return actor;
}
async function send(target, activity) {
  try {
    await ctx.sendActivity({ identifier: "bob" }, await actorOf(target), activity);
  } catch (e) {
    throw new ControlError(502, `sending ${typeName(activity)} ${activity.id?.href} to ${target} failed: ${e?.message ?? e}`);
  }
  return activity.id.href;
}
async function status(request) {
  const response = await realFetch(request);
  await response.arrayBuffer();
  return response.status;
}

const control = {
  async lookup(body) {
    need(body, "resource");
    const actor = await ctx.lookupObject(body.resource);
    if (!(actor instanceof Person)) throw new ControlError(502, `looking up ${body.resource} gave ${typeName(actor) ?? "nothing"}`);
    actors.set(actor.id.href, actor);
    const key = await actor.getPublicKey();
    return {
      actor: {
        type: typeName(actor), id: actor.id.href, preferredUsername: actor.preferredUsername == null ? null : String(actor.preferredUsername),
        name: actor.name == null ? null : String(actor.name), url: href(actor.url),
        inbox: actor.inboxId?.href ?? null, sharedInbox: actor.endpoints?.sharedInbox?.href ?? null,
        outbox: actor.outboxId?.href ?? null, followers: actor.followersId?.href ?? null,
        publicKey: key == null ? null : { id: key.id?.href ?? null, owner: key.ownerId?.href ?? null, algorithm: key.publicKey?.algorithm?.name ?? null },
        manuallyApprovesFollowers: actor.manuallyApprovesFollowers ?? null,
      },
    };
  },
  async follow(body) {
    need(body, "target");
    const follow = new Follow({ id: nextId("follows"), actor: me, object: new URL(body.target) });
    follows.set(follow.id.href, follow);
    return { id: await send(body.target, follow) };
  },
  async "undo-follow"(body) {
    need(body, "target", "follow");
    const follow = follows.get(body.follow);
    if (!follow) throw new ControlError(404, `no Follow ${body.follow} was sent`);
    return { id: await send(body.target, new Undo({ id: nextId("undos"), actor: me, object: follow })) };
  },
  async reply(body) {
    need(body, "target", "inReplyTo", "content");
    const note = new Note({
      id: nextId("notes"), attribution: me, to: PUBLIC_COLLECTION, content: body.content,
      replyTarget: new URL(body.inReplyTo), published: Temporal.Now.instant(),
    });
    notes.set(note.id.href, note);
    const create = new Create({ id: new URL(note.id.href + "/create"), actor: me, object: note, to: PUBLIC_COLLECTION });
    return { id: note.id.href, create: await send(body.target, create) };
  },
  async "delete-reply"(body) {
    need(body, "target", "note");
    if (!notes.has(body.note)) throw new ControlError(404, `no Note ${body.note} was sent`);
    const del = new Delete({ id: new URL(body.note + "/delete"), actor: me, object: new Tombstone({ id: new URL(body.note) }), to: PUBLIC_COLLECTION });
    return { id: await send(body.target, del) };
  },
  async like(body) {
    need(body, "target", "object");
    return { id: await send(body.target, new Like({ id: nextId("likes"), actor: me, object: new URL(body.object) })) };
  },
  // Requests straight at an inbox, each but "signed" wrong in one way. Signed ones are made with
  // Fedify's own signRequest in the draft-cavage form Mastodon uses.
  async hostile(body) {
    need(body, "inbox", "object");
    const keyId = new URL(me.href + "#main-key");
    const cavage = { spec: "draft-cavage-http-signatures-12" };
    const payload = () => JSON.stringify({
      "@context": "https://www.w3.org/ns/activitystreams", id: nextId("likes").href, type: "Like", actor: me.href, object: body.object,
    });
    const request = (json) => new Request(body.inbox, { method: "POST", headers: { "content-type": "application/activity+json" }, body: json });
    const out = {};
    out.unsigned = await status(request(payload()));
    const signed = await signRequest(request(payload()), keyPairs[0].privateKey, keyId, cavage);
    const replay = signed.clone();
    out.signed = await status(signed);
    out.replayed = await status(replay);
    const other = await generateCryptoKeyPair("RSASSA-PKCS1-v1_5");
    out.forged = await status(await signRequest(request(payload()), other.privateKey, keyId, cavage));
    const json = payload();
    const good = await signRequest(request(json), keyPairs[0].privateKey, keyId, cavage);
    out.wrongDigest = await status(new Request(body.inbox, { method: "POST", headers: new Headers(good.headers), body: json.replace('"Like"', '"Announce"') }));
    const stale = await signRequest(request(payload()), keyPairs[0].privateKey, keyId, {
      ...cavage, currentTime: Temporal.Now.instant().subtract({ hours: 2 }),
    });
    out.stale = await status(stale);
    out.rfc9421Only = await status(await signRequest(request(payload()), keyPairs[0].privateKey, keyId, { spec: "rfc9421" }));
    return out;
  },
  async collections(body) {
    need(body, "target");
    const actor = await actorOf(body.target);
    const outbox = await actor.getOutbox();
    const items = [];
    if (outbox) {
      for await (const item of ctx.traverseCollection(outbox)) items.push({ type: typeName(item), id: item.id?.href ?? null, objectId: item.objectId?.href ?? null });
    }
    const followers = await actor.getFollowers();
    return {
      outbox: outbox == null ? null : { totalItems: outbox.totalItems ?? null, items },
      followers: followers == null ? null : { totalItems: followers.totalItems ?? null },
    };
  },
  // Fedify's getNodeInfo() always refuses private addresses (no option), so the documents are
  // fetched here and parsed by Fedify's strict parseNodeInfo.
  async nodeinfo(body) {
    need(body, "origin");
    const wellKnown = await (await realFetch(`${body.origin}/.well-known/nodeinfo`)).json();
    const link = wellKnown?.links?.find((l) => l.rel === "http://nodeinfo.diaspora.software/ns/schema/2.1");
    if (!link) throw new ControlError(502, `no NodeInfo 2.1 link in ${JSON.stringify(wellKnown)}`);
    const parsed = parseNodeInfo(await (await realFetch(link.href)).json());
    if (parsed == null) throw new ControlError(502, `Fedify's parseNodeInfo refused ${link.href}`);
    return { href: link.href, nodeinfo: parsed };
  },
  async wait(body) {
    need(body, "type");
    const want = { type: body.type, objectId: body.objectId, id: body.id };
    const hit = received.find((entry) => matches(entry, want));
    if (hit) return hit;
    const ms = Number(body.timeoutMs ?? 10000);
    const entry = await new Promise((resolve) => {
      const waiter = { want, resolve };
      waiters.add(waiter);
      setTimeout(() => { waiters.delete(waiter); resolve(null); }, ms);
    });
    if (entry) return entry;
    const got = received.map((e) => `${e.type} ${e.id} (object ${e.objectId})`).join("; ") || "nothing";
    throw new ControlError(408, `no verified ${JSON.stringify(want)} within ${ms} ms; received so far: ${got}`);
  },
};

async function handleControl(req, name, raw) {
  if (req.method === "GET" && name === "received") return { received };
  const handler = Object.hasOwn(control, name) ? control[name] : null;
  if (req.method !== "POST" || !handler) throw new ControlError(404, `no control route ${req.method} /control/${name}`);
  let body;
  try {
    body = raw.length ? JSON.parse(raw.toString("utf8")) : {};
  } catch (e) {
    throw new ControlError(400, `the body is not JSON: ${e.message}`);
  }
  return handler(body ?? {});
}

const server = http.createServer(async (req, res) => {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  const raw = Buffer.concat(chunks);
  const path = req.url.split("?")[0];
  if (path.startsWith("/control/")) {
    let status = 200;
    let out;
    try {
      out = await handleControl(req, path.slice("/control/".length), raw);
    } catch (e) {
      status = e instanceof ControlError ? e.status : 500;
      out = { error: e instanceof ControlError ? e.message : String(e?.stack ?? e) };
      process.stderr.write(`control ${path}: ${status} ${out.error}\n`);
    }
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(out));
    return;
  }
  // Everything else is Fedify's: a node:http request handed to federation.fetch.
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) headers.set(k, Array.isArray(v) ? v.join(", ") : v);
  const request = new Request(`http://${req.headers.host}${req.url}`, {
    method: req.method, headers, body: req.method === "GET" || req.method === "HEAD" ? undefined : raw,
  });
  try {
    const response = await federation.fetch(request, { contextData: undefined });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
    process.stderr.write(`${req.method} ${req.url} -> ${response.status}\n`);
  } catch (e) {
    process.stderr.write(`${req.method} ${req.url} -> 500 ${e?.stack ?? e}\n`);
    res.writeHead(500, { "content-type": "text/plain" });
    res.end("peer error");
  }
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
ORIGIN = `http://127.0.0.1:${server.address().port}`;
ctx = federation.createContext(new URL(ORIGIN), undefined);
me = ctx.getActorUri("bob");
process.stdout.write(JSON.stringify({
  origin: ORIGIN, actor: me.href, inbox: ctx.getInboxUri("bob").href, sharedInbox: ctx.getInboxUri().href,
}) + "\n");
// Stops when told to (SIGTERM) or when the test process that started it goes away (stdin closes).
process.on("SIGTERM", () => process.exit(0));
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();
