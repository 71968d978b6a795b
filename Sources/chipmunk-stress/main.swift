import Chipmunk
