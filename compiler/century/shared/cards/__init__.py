"""What printed cards and the kit's pieces show, shared by every target that draws them: the
card faces (`faces`, drawn by ``faces.typ``), where cards and marks go on a sheet (`layout`)
and the tokens and caravan mats (`kit`, drawn by ``kit.typ``)."""
