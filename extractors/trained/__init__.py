"""Trained components: small statistical models that ship inside the package and give the
rules a second opinion (:mod:`extractors.trained.acts`). They are rebuilt with
``make train`` from pinned data and a fixed seed; nothing is downloaded at run time."""
