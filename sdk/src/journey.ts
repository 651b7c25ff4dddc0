/**
 * A buyer's journey through the client generated from openapi.json (openapi-typescript types,
 * openapi-fetch calls), as a partner's app would make it: sign in, browse the catalog, walk the bank
 * credit chain, order the car on credit, pay the initial payment by card with the sandbox code, and
 * follow the order's steps. Then the sign-in of an `otp` partner's app: the login without a code sends
 * one by SMS (202), the login with it signs in (201; the sandbox SMS gateway's code is 666666).
 *
 * It compiles with `tsc --strict` against the generated types only (a field the document does not
 * declare is a compile error), then runs against an API: `node build/journey.js` against `make run`
 * (http://127.0.0.1:3000, its demo partners), or `node build/journey.js <API base URL> <client key of an
 * otp partner>`. It prints one JSON line of what it did and exits 0, or names the failed step and exits 1.
 */
import { randomUUID } from "node:crypto";
import createClient, { type Middleware } from "openapi-fetch";
import type { components, paths } from "./schema.js";

type Schemas = components["schemas"];

// The sandbox processor's test card (UZCARD, paid) and the code it sends (README, "Card payments").
const SANDBOX_CARD = "8600 4954 7331 6478";
const SANDBOX_OTP = "666666";
// The sandbox SMS gateway's sign-in code, for any phone (docs/INTERFACE.md, "Who the caller is").
const SANDBOX_LOGIN_CODE = "666666";
const BUYER_PHONE = process.env.JOURNEY_PHONE ?? "+998907770011";
const OTP_PHONE = process.env.JOURNEY_OTP_PHONE ?? "+998907770012";

// `make run` and its demo partners (docs/DEMO_DATA.md), unless told otherwise.
const baseUrl = process.argv[2] ?? "http://127.0.0.1:3000";
const otpClient = process.argv[3] ?? "demo-otp-partner-key";

/** The answer's `data`, or a thrown error naming the step and what the API said. */
function data<E extends { data: unknown }>(step: string, answer: { data?: E; error?: unknown; response: Response }): E["data"] {
  if (answer.data === undefined) {
    throw new Error(`${step}: ${answer.response.status} ${JSON.stringify(answer.error)}`);
  }
  return answer.data.data;
}

function check(condition: boolean, what: string): asserts condition {
  if (!condition) {
    throw new Error(`expected: ${what}`);
  }
}

function first<T>(items: T[], what: string): T {
  const item = items[0];
  check(item !== undefined, `at least one ${what}`);
  return item;
}

// The common headers are security schemes of the document: set once, on the client.
const api = createClient<paths>({
  baseUrl,
  headers: { "User-Agent": "car-retail-journey/1.0", fingerprint: "journey-device-1", client: "demo-partner-key" },
});

async function journey(): Promise<Record<string, unknown>> {
  // Sign in, then send the access token on every call
  const tokens = data("login", await api.POST("/api/v1/auth/login", { body: { phone: BUYER_PHONE } }));
  check("accessToken" in tokens, "the demo partner (trusted) signs the phone in at once");
  const bearer: Middleware = {
    onRequest({ request }) {
      request.headers.set("Authorization", `Bearer ${tokens.accessToken}`);
      return request;
    },
  };
  api.use(bearer);
  const profile = data("getProfile", await api.GET("/api/v1/auth/me"));
  check(profile.phone === BUYER_PHONE, "the profile of the phone that signed in");

  // Browse: a brand, its cars found by name, one car
  const brands = data("listBrands", await api.GET("/api/v1/brands", { params: { query: { sort: "name" } } }));
  const chevrolet = brands.items.find((brand) => brand.name === "Chevrolet");
  check(chevrolet !== undefined, "Chevrolet among the brands");
  const cars = data(
    "listCars",
    await api.GET("/api/v1/cars", { params: { query: { brands: chevrolet._id, search: "Cobalt", limit: 5 } } }),
  );
  const listed = first(cars.items, "Cobalt");
  const car: Schemas["CarDetail"] = data(
    "getCar",
    await api.GET("/api/v1/cars/{id}", { params: { path: { id: listed._id } } }),
  );
  check(car.paymentTypes.includes("CREDIT"), "the car is sold on credit");
  const modification = car.modifications.reduce((cheapest, item) => (item.price < cheapest.price ? item : cheapest));

  // A catalog read the app holds is revalidated with its ETag: 304, no body
  const again = await api.GET("/api/v1/brands", { params: { query: { sort: "name" } } });
  const etag = again.response.headers.get("ETag");
  check(etag !== null, "an ETag on the brands");
  const revalidated = await api.GET("/api/v1/brands", {
    params: { query: { sort: "name" }, header: { "If-None-Match": etag } },
  });
  check(revalidated.response.status === 304, `304 for the current ETag, got ${revalidated.response.status}`);

  // A branch that has the car in stock, color by color
  let stocked: { color: Schemas["ColorItem"]; region: Schemas["Region"]; branch: Schemas["BranchAvailability"] } | null =
    null;
  for (const color of car.colors) {
    const regions = data(
      "listBranchRegions",
      await api.GET("/api/v1/dictionaries/branch/regions", {
        params: { query: { brandId: chevrolet._id, carId: car._id, modificationId: modification._id, colorId: color._id } },
      }),
    );
    for (const region of regions.items) {
      const branch = region.branches.find((item) => item.available);
      if (branch !== undefined) {
        stocked = { color, region, branch };
        break;
      }
    }
    if (stocked !== null) break;
  }
  check(stocked !== null, `a branch with ${car.name} ${modification.name} in stock`);

  // The bank credit chain, step by step, to a calculation
  const ids = { brandId: chevrolet._id, carId: car._id, modificationId: modification._id };
  const types = data(
    "listPaymentTypes",
    await api.GET("/api/v2/payments/types", { params: { query: { modificationId: modification._id, brandId: chevrolet._id } } }),
  );
  check(types.items.some((item) => item.slug === "CREDIT"), "CREDIT among the payment types");
  const bank = first(data("listBankOffers", await api.GET("/api/v2/payments/banks", { params: { query: ids } })).items, "bank offer");
  const incomeType = first(
    data("listIncomeTypes", await api.GET("/api/v2/payments/banks/income-types", { params: { query: { bankId: bank._id } } })).items,
    "income type",
  );
  const initialPayment = first(
    data(
      "listInitialPayments",
      await api.GET("/api/v2/payments/banks/initial-payment", { params: { query: { incomeTypeId: incomeType._id } } }),
    ).items,
    "initial payment",
  );
  const loanTerm = first(
    data(
      "listLoanTerms",
      await api.GET("/api/v2/payments/banks/loan-terms", { params: { query: { initialPaymentId: initialPayment._id } } }),
    ).items,
    "loan term",
  );
  const refundType = first(
    data("listRefundTypes", await api.GET("/api/v2/payments/banks/refund-types", { params: { query: { loanTermId: loanTerm._id } } }))
      .items,
    "refund type",
  );
  const choice: Schemas["CreditChoice"] = {
    bankId: bank._id,
    incomeTypeId: incomeType._id,
    initialPaymentId: initialPayment._id,
    loanTermId: loanTerm._id,
    refundTypeId: refundType._id,
  };
  const credit = data("calculateBankCredit", await api.GET("/api/v2/payments/banks/calculate", { params: { query: choice } }));
  check(credit.carPrice === modification.price, "the credit priced on the current price");
  check(credit.initialPayment + credit.loanAmount === credit.carPrice, "initial payment + loan = price");
  check(credit.schedule.length === loanTerm.months, "one schedule row per month");

  // Order the car on that credit, at its current price (a retry with the same key would not order twice)
  const order = data(
    "createOrder",
    await api.POST("/api/v1/orders", {
      params: { header: { "Idempotency-Key": randomUUID() } },
      body: {
        carId: car._id,
        modificationId: modification._id,
        colorId: stocked.color._id,
        regionId: stocked.region._id,
        branchId: stocked.branch._id,
        paymentTypeId: "CREDIT",
        price: modification.price,
        credit: choice,
      },
    }),
  );
  check(order.statusSlug === "NEW", "a new order");
  check(order.amountDueNow === credit.initialPayment, "the initial payment is due now");

  // Pay the initial payment by card with the code the sandbox sends
  const card = data("checkCard", await api.GET("/api/v1/transactions/check-card", { params: { query: { cardNumber: SANDBOX_CARD } } }));
  check(card.type === "UZCARD", "the sandbox card is UZCARD");
  const started = data(
    "createCardPayment",
    await api.POST("/api/v1/transactions/create", {
      params: { header: { "Idempotency-Key": randomUUID() } },
      body: {
        amount: order.amountDueNow,
        cardNumber: SANDBOX_CARD,
        expiry: "12/30",
        cardType: "UZCARD",
        brandId: order.brandId,
        orderId: order._id,
      },
    }),
  );
  const paid = data(
    "confirmCardPayment",
    await api.POST("/api/v1/transactions/apply", {
      params: { header: { "Idempotency-Key": randomUUID() } },
      body: {
        transactionId: started.transactionId,
        otp: SANDBOX_OTP,
        amount: order.amountDueNow,
        brandId: order.brandId,
        orderId: order._id,
      },
    }),
  );
  check(paid.status === "CONFIRMED" && paid.orderStatus === "PAID", "the payment confirmed and the order paid");

  // The order's steps, its payments and the order itself say so
  const steps = data("listOrderSteps", await api.GET("/api/v1/order-logs/steps", { params: { query: { orderId: order._id } } }));
  const current = steps.items.filter((step) => step.isCurrent).map((step) => step.slug);
  check(JSON.stringify(current) === JSON.stringify(["PAID"]), `PAID is the current step, got ${JSON.stringify(current)}`);
  const history = data("listCardPayments", await api.GET("/api/v1/transactions/history", { params: { query: { orderId: order._id } } }));
  check(history.items.length === 1 && history.items[0]?.cardMask === "860049******6478", "one masked payment");
  const final = data("getOrder", await api.GET("/api/v1/orders/{id}", { params: { path: { id: order._id } } }));
  check(final.paidAmount === order.amountDueNow, "the order records what was paid");

  return {
    otpSignedIn: await otpSignIn(),
    contractNumber: final.contractNumber,
    status: final.statusSlug,
    monthlyPayment: credit.monthlyPayment,
    paid: final.paidAmount,
    steps: steps.items.map((step) => step.slug),
  };
}

/** An `otp` partner's app signs a person in: a code by SMS first (202), then the login with it (201). */
async function otpSignIn(): Promise<string> {
  const app = createClient<paths>({
    baseUrl,
    headers: { "User-Agent": "car-retail-journey/1.0", fingerprint: "journey-device-2", client: otpClient },
  });
  const asked = await app.POST("/api/v1/auth/login", { body: { phone: OTP_PHONE } });
  check(asked.response.status === 202, `a code sent (202), got ${asked.response.status}`);
  const sent = data("login (code sent)", asked);
  check("codeSent" in sent && sent.codeSent && Date.parse(sent.expiresAt) > Date.now(), "a code valid for a while");
  const answered = await app.POST("/api/v1/auth/login", { body: { phone: OTP_PHONE, otp: SANDBOX_LOGIN_CODE } });
  check(answered.response.status === 201, `signed in with the code (201), got ${answered.response.status}`);
  const signedIn = data("login (with the code)", answered);
  check("accessToken" in signedIn, "a token pair for the code");
  const me = data(
    "getProfile (otp)",
    await app.GET("/api/v1/auth/me", { headers: { Authorization: `Bearer ${signedIn.accessToken}` } }),
  );
  check(me.phone === OTP_PHONE, "the profile of the phone the code was sent to");
  return me.phone;
}

journey().then(
  (summary) => console.log(JSON.stringify(summary)),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
