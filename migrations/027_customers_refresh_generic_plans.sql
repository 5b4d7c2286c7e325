-- The customers' summary (issue 24): customers_refresh's statement (migrations/026) was planned
-- anew on every call. PL/pgSQL keeps a statement's plan for the connection only once a plan for
-- any values (a generic plan) is estimated no dearer than the plans made for each call's values,
-- and for an array of keys the estimate of a generic plan (ten keys, say) never is, though it is
-- the same plan: index probes per key. Planning the INSERT ... SELECT with its window and its two
-- LATERAL reads took most of the function's time, in every booking's insert: 0.44 ms a call
-- against 0.12 ms with the plan kept (500 calls in one session), and 21 against 17 ms for all of
-- 1,000 customers at once. customers_visits_refresh (migrations/024), which the Customers view
-- calls for the customers whose visits moved on, is planned the same way.
ALTER FUNCTION customers_refresh(text[], boolean) SET plan_cache_mode = force_generic_plan;
ALTER FUNCTION customers_visits_refresh(text[], timestamptz) SET plan_cache_mode = force_generic_plan;
