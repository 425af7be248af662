"""Overview: the headline figures of the filtered deals and the win rate of every declared contract."""

from __future__ import annotations

import streamlit as st

from dashboards import charts, data, widgets
from dashboards.labels import percent
from dashboards.sidebar import current_filters

filters = current_filters()
st.title("Overview")
head = data.headline(filters)
first, last = head["date_from"], head["date_to"]
dated = filters.date_from is not None or filters.date_to is not None
span = (f"from {first} to {last}" if first and last
        else "no deal in these dates" if dated and not head["deals"] else "no dates recorded")
st.caption(f"Deals in the store that match the sidebar filters ({span}).")

deals, sessions, players, renons, disputed = st.columns(5)
deals.metric("Deals", f"{head['deals']:,}", help="Stored deals (every status).")
sessions.metric("Sessions", f"{head['sessions']:,}")
players.metric("Players", f"{head['players']:,}")
renons.metric("Renons rate", percent(head["renons_rate"]) or "—",
              help="Share of deals with at least one renons (a rule broken in play, stash or turn order).")
disputed.metric("Disputed scores", f"{head['disputed_deals']:,}",
                help="Deals whose recorded score differs from the recomputed one (see Audit).")
st.caption(f"{head['ok_deals']:,} ok · {head['renons_deals']:,} with renons · {head['error_deals']:,} in error "
           "(an error deal cannot be trusted and gets no score).")

if widgets.no_deals_note(head["deals"]):
    st.stop()

st.subheader("Win rate by contract")
rates = data.contract_win_rates(filters, ("ruleset", "contract"))
if rates.is_empty():
    st.info("No declared contract among these deals.")
else:
    for pool, part in charts.pools(rates):
        st.markdown(f"**{pool}**")
        st.altair_chart(charts.win_rate_chart(part), width="stretch")
    st.caption("Points: share of declared games won; bars: 95 % Wilson interval; one chart per ruleset and number "
               "of players. Klop, deals in error and annulled deals are not counted.")
