// The periodic retry looks for conversations whose processing lease ran out: a run that died
// (killed, a machine lost) never released it, and the turns it was processing wait with no
// error recorded (app/store/admin.py). Without this index that look scans every conversation.
CREATE INDEX conversation_lease IF NOT EXISTS FOR (n:Conversation) ON (n.leaseUntil);
