"""What every corpus shares: tokenizer, rule files, tags, decisions and coarse acts.

What every corpus shares: the tokenizer, the rule-file loader, tag rules, the decision
list, the coarse act space and the regex time guard. Nothing here knows a corpus."""
