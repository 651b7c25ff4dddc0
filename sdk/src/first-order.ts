// A partner app's first order through the generated client: sign in by SMS code, find a car and where it
// is in stock, order it. Against `make run`: node build/first-order.js [API base URL] [phone].
import { randomUUID } from "node:crypto";
import createClient from "openapi-fetch";
import type { paths } from "./schema.js";

const baseUrl = process.argv[2] ?? "http://127.0.0.1:3000";
// A new account each run (an account nobody verified holds one car not paid in full at a time).
const phone = process.argv[3] ?? `+99890${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`;

const api = createClient<paths>({
  baseUrl,
  // The common headers; demo-otp-partner-key is make run's partner whose users sign in by SMS code.
  headers: { "User-Agent": "my-app/1.0", fingerprint: "my-device-id", client: "demo-otp-partner-key" },
});

/** The answer's `data`, or an error naming the step and what the API said. */
function ok<E extends { data: unknown }>(step: string, answer: { data?: E; error?: unknown; response: Response }): E["data"] {
  if (answer.data === undefined) throw new Error(`${step}: ${answer.response.status} ${JSON.stringify(answer.error)}`);
  return answer.data.data;
}

// 1. Sign in: the login without a code sends one by SMS (202); with it, 201 and tokens.
//    make run's sandbox SMS gateway sends nothing: its code is 666666.
ok("send the code", await api.POST("/api/v1/auth/login", { body: { phone } }));
const tokens = ok("sign in", await api.POST("/api/v1/auth/login", { body: { phone, otp: "666666" } }));
if (!("accessToken" in tokens)) throw new Error("sign in: no tokens");
api.use({
  onRequest: ({ request }) => {
    request.headers.set("Authorization", `Bearer ${tokens.accessToken}`);
    return request;
  },
});

// 2. Browse: a car found by name, its cheapest modification, and a branch that has it in some color.
const found = ok("find", await api.GET("/api/v1/cars", { params: { query: { search: "Tracker", limit: 1 } } }));
const listed = found.items[0];
if (listed === undefined) throw new Error("find: no car");
const car = ok("car", await api.GET("/api/v1/cars/{id}", { params: { path: { id: listed._id } } }));
const modification = car.modifications.reduce((a, b) => (b.price < a.price ? b : a));
let where: { colorId: string; regionId: string; branchId: string } | undefined;
for (const color of car.colors) {
  const query = { brandId: car.brand._id, carId: car._id, modificationId: modification._id, colorId: color._id };
  const regions = ok("stock", await api.GET("/api/v1/dictionaries/branch/regions", { params: { query } }));
  for (const region of regions.items) {
    const branch = region.branches.find((item) => item.available);
    if (branch !== undefined) where ??= { colorId: color._id, regionId: region._id, branchId: branch._id };
  }
}
if (where === undefined) throw new Error(`stock: no branch has ${car.name} ${modification.name}`);

// 3. Order it, paid in cash at the branch, at the price shown (a changed price is refused, not charged).
const order = ok(
  "order",
  await api.POST("/api/v1/orders", {
    params: { header: { "Idempotency-Key": randomUUID() } },
    body: { carId: car._id, modificationId: modification._id, ...where, paymentTypeId: "CASH", price: modification.price },
  }),
);
console.log(JSON.stringify({ phone, car: car.name, contractNumber: order.contractNumber, status: order.statusSlug }));
