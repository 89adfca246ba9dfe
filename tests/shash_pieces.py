"""Hashing a message in pieces, as the shash tests' property checks do.

``digest_in_pieces(tfm, data, cuts)`` feeds ``data`` to one descriptor of the
shash ``tfm`` cut at the offsets ``cuts`` (any order, clipped to the length;
empty pieces included) and returns its final digest.
"""


def digest_in_pieces(tfm, data, cuts):
    desc = tfm.desc().init()
    bounds = [0] + sorted(min(c, len(data)) for c in cuts) + [len(data)]
    for a, b in zip(bounds, bounds[1:]):
        desc.update(data[a:b])
    return desc.final()
