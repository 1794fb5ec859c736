"""Knowledge: the data files and what they say (schemas, products, collection switches,
targets, the machine's CANN and chip, msprof's options and how its binary reads them). The
rules' pages live with their checks (checks/catalog.py gathers them).

Read by every layer; imports no other layer of the package.
"""
