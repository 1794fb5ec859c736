"""Knowledge: the data files and what they say (schemas, products, collection switches,
targets, the machine's CANN and chip, the rule catalog).

Read by every layer; imports no other layer of the package.
"""
