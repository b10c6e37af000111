"""A frozen copy of Tiny Epic Cthulhu's callback engine (the rules calling the strategy from
inside a rule), as it stood before the port to the step contract: kept only to prove the
step engine plays the same games (``python -m simcore.tec.callback.compare``) and to bench
both in one run.  Nothing else imports it; it goes once the proof is recorded in NOTES.md."""
