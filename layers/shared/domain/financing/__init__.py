"""domain.financing: bank credit, leasing and installments, with one vocabulary for all three.

- choice: the ids a client chose (an offer or program or plan, and its options); `store.offer_choice`
  and `store.leasing_choice` read what was chosen;
- deal: a choice checked against the data, with its car and modification and its quote
  (`deals.CreditDeal`, `LeasingDeal`, `InstallmentDeal`);
- quote: the maths of a deal on the current price (`credit_math.CreditQuote`, `LeasingQuote`,
  `InstallmentQuote`), a lease priced with its program's rates for the choice (`LeasingPricing`);
- figures: what the API shows of a quote (`models.CreditFigures`, `LeasingFigures`, `InstallmentFigures`),
  which the financing routes answer (their response models, named per route, extend them) and orders
  store;
- an offer id is a bank offer's id (`offer_id`): the contract calls it `bankId`.
"""
