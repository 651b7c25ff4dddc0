"""`make bench ARGS=--opening-model` (tools/opening_model.py): a fair opening in virtual time keeps the
promises the deployed limits make, at a scale a unit test runs in a moment."""

from __future__ import annotations

from dataclasses import replace

from tools.opening_model import OpeningModel, report, simulate


def test_every_unit_is_sold_for_good_and_the_origin_stays_within_the_deployed_limits() -> None:
    # Given 20,000 people for 2,000 units with prod's throttles and concurrency
    model = OpeningModel.deployed(20_000, 2_000)
    # When the opening runs to its end
    out = simulate(model)
    # Then every unit is sold to someone who paid, units that came back included
    assert out.sold == model.units
    assert out.came_back > 0
    # And the API sees orders and sign-ins only, under the order and login throttles together
    assert out.peak_api_per_second <= model.order_rate + model.login_rate
    assert out.peak_order_functions < 150
    assert out.peak_connections < 400
    # And status polls are the edge's: the bucket is asked per edge location, whatever the crowd
    assert out.peak_origin_per_second == 2 * model.edge_locations
    assert out.peak_status_per_second == model.people // model.poll_seconds


def test_orders_beyond_what_the_stock_sells_halve_the_pace_and_the_opening_still_sells_out() -> None:
    # Given stock that sells 30 orders a second and a queue admitting 80
    model = replace(OpeningModel.deployed(20_000, 5_000), stock_sales_per_second=30)
    # When the opening runs
    out = simulate(model)
    # Then some seconds met DATA_BUSY, and every unit was still sold
    assert out.busy_seconds > 0
    assert out.sold == model.units
    assert report(model, out)[0] == "A fair opening modelled in virtual time: 20,000 people, 5,000 units"
